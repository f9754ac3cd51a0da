/** The BigQuery kind's runtime: `@google-cloud/bigquery` with credentials kept per key (or project environment). */
import type { BigQuery } from '@google-cloud/bigquery';
import type { ParameterDefinition } from '../../domain/definitions/parameter.ts';
import { DoguError } from '../../domain/errors.ts';
import type { EngineRun } from '../../domain/ports.ts';
import type { ConnectorRuntime } from '../connector.ts';
import { GoogleCredentials } from '../google-auth/google-credentials.ts';
import type { SqlActionInput } from '../sql/definition.ts';
import { runSqlStatements } from '../sql/run-sql.ts';
import { bigQueryClient } from './bigquery-client.ts';
import { runBigQueryStatement } from './bigquery-query.ts';
import { type BigQueryConnection, bigQueryScope } from './definition.ts';

export function bigQueryRuntime(options: { pollMs?: number } = {}): ConnectorRuntime {
  const credentials = new GoogleCredentials([bigQueryScope]);
  return {
    async run(run: EngineRun) {
      const connection = run.connection as BigQueryConnection;
      const action = run.action as unknown as SqlActionInput;
      const parameters = new Map<string, ParameterDefinition>(action.parameters.map((p) => [p.name, p]));
      // Made at the first statement, so a connection that cannot give credentials fails that statement.
      let client: BigQuery | undefined;
      const input = () => {
        client ??= bigQueryClient(
          connection,
          credentials.client({
            connection,
            cacheKey: run.key,
            ...(run.identityToken ? { identityToken: run.identityToken } : {}),
          }),
        );
        return { client, connection, parameters, ...options, ...(run.dryRun ? { dryRunOnly: true } : {}) };
      };
      return runSqlStatements({
        action,
        dialect: 'bigquery',
        connector: { run: (statement, runOptions) => runBigQueryStatement(input(), statement, runOptions) },
        values: run.values,
        signal: run.signal,
      });
    },
    async testConnection(check) {
      const connection = check.connection as BigQueryConnection;
      // SELECT 1 scans no table (bills nothing) and proves the key, the project and the Job User role.
      // A fresh exchange each time: "check the trust" shows a fixed trust configuration at once.
      const authClient = credentials.fresh({
        connection,
        cacheKey: check.key,
        ...(check.identityToken ? { identityToken: check.identityToken } : {}),
      });
      const input = {
        client: bigQueryClient(connection, authClient),
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
