/**
 * Runs an HTTP API action: resolve `{{ authToken }}` through the data source's
 * authentication action (cached for its cacheSeconds), build the request, send
 * it, shape the response.
 */
import type { FileValue } from '../../domain/definitions/parameter.ts';
import { DoguError } from '../../domain/errors.ts';
import type { DataSource, StatementResult } from '../../domain/model.ts';
import type { HttpClient } from '../../domain/ports.ts';
import { authTokenFor } from '../auth-token.ts';
import { failedResult } from '../sql/run-sql.ts';
import type { HttpActionInput, HttpConnection } from './definition.ts';
import { buildHttpCall } from './http-request.ts';
import { shapeHttpResult } from './http-result.ts';

/** Responses above this are refused while they stream in, not after. */
export const maxResponseBytes = 10 * 1024 * 1024;

export interface HttpRunInput {
  action: HttpActionInput;
  dataSource: DataSource;
  environmentId: string;
  connection: HttpConnection;
  values: Record<string, unknown>;
  signal: AbortSignal;
  deadlineAt: number;
  /** Runs the data source's authentication action and returns its results. */
  runAuthAction: (actionId: string) => Promise<StatementResult[]>;
}

export async function runHttpAction(http: HttpClient, input: HttpRunInput): Promise<StatementResult[]> {
  const { action, connection, values } = input;
  try {
    const authToken = await authTokenFor(input);
    const files: Record<string, FileValue> = {};
    for (const parameter of action.parameters) {
      if (parameter.kind === 'file' && values[parameter.name])
        files[parameter.name] = values[parameter.name] as FileValue;
    }
    const call = buildHttpCall({
      action,
      connection,
      files,
      resolve: (reference) => {
        if (reference === 'authToken' && authToken !== undefined) return authToken;
        if (!(reference in values))
          throw new DoguError('internal_error', `No value was prepared for {{ ${reference} }}.`);
        return values[reference];
      },
    });
    const remaining = Math.max(1, input.deadlineAt - Date.now());
    const response = await http.send(call, {
      signal: input.signal,
      timeoutMs: Math.min(connection.timeoutMs ?? remaining, remaining),
      maxBodyBytes: maxResponseBytes,
      ...(connection.allowPrivateNetworks ? { allowPrivateNetworks: true } : {}),
    });
    return [shapeHttpResult(response, action.name)];
  } catch (error) {
    if (!(error instanceof DoguError)) throw error;
    return [failedResult(action.name, error)];
  }
}
