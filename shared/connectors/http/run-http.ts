/**
 * Runs an HTTP API action: resolve `{{ authToken }}` through the data source's
 * authentication action (cached for its cacheSeconds), build the request, send
 * it, shape the response.
 */
import type { FileValue } from '../../domain/definitions/parameter.ts';
import { DoguError } from '../../domain/errors.ts';
import type { DataSource, StatementResult } from '../../domain/model.ts';
import type { HttpClient } from '../../domain/ports.ts';
import { failedResult } from '../sql/run-sql.ts';
import type { HttpActionInput, HttpConnection } from './definition.ts';
import { buildHttpCall } from './http-request.ts';
import { shapeHttpResult } from './http-result.ts';

/** Responses above this are refused while they stream in, not after. */
export const maxResponseBytes = 10 * 1024 * 1024;
const defaultTokenCacheSeconds = 300;

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

const tokens = new Map<string, { token: string; expiresAt: number }>();

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
    });
    return [shapeHttpResult(response, action.name)];
  } catch (error) {
    if (!(error instanceof DoguError)) throw error;
    return [failedResult(action.name, error)];
  }
}

async function authTokenFor(input: HttpRunInput): Promise<string | undefined> {
  const auth = input.dataSource.authAction;
  // The authentication action itself runs without a token.
  if (!auth || auth.actionId === input.action.id) return undefined;
  const key = `${input.dataSource.projectId}/${input.dataSource.id}/${input.environmentId}`;
  const cached = tokens.get(key);
  if (cached && cached.expiresAt > Date.now()) return cached.token;

  const results = await input.runAuthAction(auth.actionId);
  const failed = results.find((r) => r.status === 'failed');
  if (failed) {
    throw new DoguError(
      'data_source_error',
      `The authentication action '${auth.actionId}' failed: ${failed.error?.message}`,
    );
  }
  const token = tokenIn(results[0], auth.tokenPath);
  if (typeof token !== 'string' || token === '') {
    throw new DoguError(
      'data_source_error',
      `The authentication action '${auth.actionId}' returned no token${auth.tokenPath ? ` at '${auth.tokenPath}'` : ''}.`,
    );
  }
  const seconds = auth.cacheSeconds ?? defaultTokenCacheSeconds;
  if (seconds > 0) tokens.set(key, { token, expiresAt: Date.now() + seconds * 1000 });
  return token;
}

/** The token is the result value (HTTP) or first row (SQL), at `tokenPath` when given. */
function tokenIn(
  result: (StatementResult & { value?: unknown }) | undefined,
  tokenPath: string | undefined,
): unknown {
  if (!result) return undefined;
  let value: unknown = 'value' in result ? result.value : result.rows[0];
  if (!tokenPath) {
    if (value && typeof value === 'object' && !('value' in result)) value = Object.values(value)[0];
    return value;
  }
  for (const part of tokenPath.split('.')) {
    value = value && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
  }
  return value;
}
