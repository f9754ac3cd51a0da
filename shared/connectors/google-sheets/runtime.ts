/** The Google Sheets runtime: access tokens kept per process, the Sheets REST API v4 through Dogu's HTTP client. */
import { NodeHttpClient } from '../../adapters/http/node-http-client.ts';
import { httpClientOptionsFromEnv } from '../../adapters/http/options-from-env.ts';
import { DoguError } from '../../domain/errors.ts';
import type { ConnectionCheck, EngineRun, HttpClient } from '../../domain/ports.ts';
import type { ConnectorRuntime } from '../connector.ts';
import { AccessTokens, type OpenedOAuthConnection } from '../oauth/access-tokens.ts';
import { failedResult } from '../sql/run-sql.ts';
import {
  googleEndpoints,
  googleProvider,
  type SheetsActionInput,
  type SheetsConnection,
} from './definition.ts';
import { runSheetsAction } from './run-sheets.ts';
import { SheetsApi } from './sheets-api.ts';

export function sheetsRuntime(
  tokens = new AccessTokens(),
  http: HttpClient = new NodeHttpClient(httpClientOptionsFromEnv(process.env)),
): ConnectorRuntime {
  const apiFor = (connection: Record<string, unknown>, signal: AbortSignal, deadlineAt: number) => {
    const settings = connection as SheetsConnection;
    const provider = googleProvider(connection);
    const account = (connection.oauth as OpenedOAuthConnection | undefined)?.account;
    return new SheetsApi({
      http,
      baseUrl: googleEndpoints(settings).sheetsUrl,
      accessToken: (renew) => tokens.get(provider, connection, renew),
      ...(account ? { account } : {}),
      signal,
      deadlineAt,
      timeoutMs: settings.timeoutMs ?? 30_000,
    });
  };
  return {
    async run(run: EngineRun) {
      const action = run.action as unknown as SheetsActionInput;
      try {
        const api = apiFor(run.connection, run.signal, run.deadlineAt);
        return [await runSheetsAction(api, action, run.values)];
      } catch (error) {
        if (!(error instanceof DoguError) || error.code === 'internal_error') throw error;
        // Bad arguments and a lost grant fail the run itself (the domain marks "reconnect needed").
        if (error.code === 'argument_invalid' || error.extra?.oauthError === 'invalid_grant') throw error;
        return [failedResult(action.name, error)];
      }
    },
    async testConnection(check: ConnectionCheck) {
      // A token refresh proves the grant is alive; no spreadsheet is needed for that.
      const provider = googleProvider(check.connection);
      await tokens.get(provider, check.connection, true);
    },
  };
}

/** The module's entry for the engines' loader (shared/connectors/runtimes.ts). */
export const createRuntime = () => sheetsRuntime();
