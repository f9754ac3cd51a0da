/** The BigQuery kind's runtime: REST through Dogu's HTTP client, tokens per service account kept for the process. */

import { NodeHttpClient } from '../../adapters/http/node-http-client.ts';
import { httpClientOptionsFromEnv } from '../../adapters/http/options-from-env.ts';
import type { ParameterDefinition } from '../../domain/definitions/parameter.ts';
import { DoguError } from '../../domain/errors.ts';
import type { EngineRun, HttpClient } from '../../domain/ports.ts';
import type { ConnectorRuntime } from '../connector.ts';
import { GoogleCredentials } from '../google-auth/google-credentials.ts';
import type { SqlActionInput } from '../sql/definition.ts';
import { runSqlStatements } from '../sql/run-sql.ts';
import { BigQueryApi } from './bigquery-api.ts';
import { runBigQueryStatement } from './bigquery-query.ts';
import { type BigQueryConnection, bigQueryScope } from './definition.ts';

export function bigQueryRuntime(
  options: { pollMs?: number } = {},
  http: HttpClient = new NodeHttpClient(httpClientOptionsFromEnv(process.env)),
): ConnectorRuntime {
  const credentials = new GoogleCredentials(http, bigQueryScope);
  return {
    run(run: EngineRun) {
      const connection = run.connection as BigQueryConnection;
      const action = run.action as unknown as SqlActionInput;
      const parameters = new Map<string, ParameterDefinition>(action.parameters.map((p) => [p.name, p]));
      const api = new BigQueryApi(connection, credentials, http, {
        cacheKey: run.key,
        ...(run.identityToken ? { identityToken: run.identityToken } : {}),
      });
      const input = { api, connection, parameters, ...options, ...(run.dryRun ? { dryRunOnly: true } : {}) };
      return runSqlStatements({
        action,
        dialect: 'bigquery',
        connector: { run: (statement, runOptions) => runBigQueryStatement(input, statement, runOptions) },
        values: run.values,
        signal: run.signal,
      });
    },
    async testConnection(check) {
      const connection = check.connection as BigQueryConnection;
      // SELECT 1 scans no table (bills nothing) and proves the key, the project and the Job User role.
      const input = {
        // A fresh exchange each time: "check the trust" shows a fixed trust configuration at once.
        api: new BigQueryApi(connection, new GoogleCredentials(http, bigQueryScope), http, {
          cacheKey: check.key,
          ...(check.identityToken ? { identityToken: check.identityToken } : {}),
        }),
        connection: { ...connection, dryRunFirst: false },
        parameters: new Map(),
        ...options,
      };
      try {
        await runBigQueryStatement(
          input,
          { title: 'test connection', text: 'SELECT 1', values: [] },
          { signal: check.signal },
        );
      } catch (error) {
        if (error instanceof DoguError)
          throw new DoguError(error.code, error.message.replace(/^Statement "test connection": /, ''));
        throw error;
      }
    },
  };
}

/** The module's entry for the engines' loader (shared/connectors/runtimes.ts). */
export const createRuntime = () => bigQueryRuntime();
