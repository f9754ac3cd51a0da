/** The Athena kind's runtime: one SDK client per data source and environment, statements in order. */
import { AthenaClient, GetDatabaseCommand } from '@aws-sdk/client-athena';
import { httpClientOptionsFromEnv } from '../../adapters/http/options-from-env.ts';
import { DoguError } from '../../domain/errors.ts';
import type { EngineRun } from '../../domain/ports.ts';
import type { ConnectorRuntime } from '../connector.ts';
import type { SqlActionInput } from '../sql/definition.ts';
import { failedResult, runSqlStatements } from '../sql/run-sql.ts';
import { athenaError } from './athena-errors.ts';
import { runAthenaQuery } from './athena-query.ts';
import type { AthenaConnection } from './definition.ts';
import { checkAthenaEndpoint } from './endpoint-rule.ts';

export function createAthenaClient(connection: AthenaConnection): AthenaClient {
  return new AthenaClient({
    region: connection.region,
    ...(connection.endpoint ? { endpoint: connection.endpoint } : {}),
    ...(connection.accessKeyId && connection.secretAccessKey
      ? { credentials: { accessKeyId: connection.accessKeyId, secretAccessKey: connection.secretAccessKey } }
      : {}),
    maxAttempts: 3,
  });
}

const trialTitle = 'test connection';

export function athenaRuntime(
  options: { pollMs?: number } = {},
  denyPrivateNetworks = httpClientOptionsFromEnv(process.env).denyPrivateNetworks ?? false,
): ConnectorRuntime {
  const clients = new Map<string, { fingerprint: string; client: AthenaClient }>();
  const clientFor = (key: string, connection: AthenaConnection): AthenaClient => {
    const fingerprint = JSON.stringify(connection);
    const known = clients.get(key);
    if (known?.fingerprint === fingerprint) return known.client;
    known?.client.destroy();
    const client = createAthenaClient(connection);
    clients.set(key, { fingerprint, client });
    return client;
  };

  return {
    async run(run: EngineRun) {
      const connection = run.connection as AthenaConnection;
      const action = run.action as unknown as SqlActionInput;
      try {
        await checkAthenaEndpoint(connection.endpoint, denyPrivateNetworks);
      } catch (error) {
        return [failedResult(action.statements[0]?.title ?? '', error as DoguError)];
      }
      const client = clientFor(run.key, connection);
      return runSqlStatements({
        action,
        dialect: 'athena',
        connector: {
          run: (statement, runOptions) =>
            runAthenaQuery(client, connection, statement, { ...runOptions, ...options }),
        },
        values: run.values,
        signal: run.signal,
      });
    },
    async testConnection(check) {
      const connection = check.connection as AthenaConnection;
      await checkAthenaEndpoint(connection.endpoint, denyPrivateNetworks);
      const client = createAthenaClient(connection);
      try {
        // The database exists and the keys may read the catalog...
        await client
          .send(
            new GetDatabaseCommand({
              CatalogName: connection.catalog ?? 'AwsDataCatalog',
              DatabaseName: connection.database,
            }),
            { abortSignal: check.signal },
          )
          .catch((error: unknown) => {
            throw athenaError(trialTitle, error);
          });
        // ...and a query runs and writes its result to the output location.
        await runAthenaQuery(
          client,
          connection,
          { title: trialTitle, text: 'SELECT 1', values: [] },
          {
            signal: check.signal,
            ...options,
          },
        );
      } catch (error) {
        // A connection test has no statement: the message starts with what failed.
        if (error instanceof DoguError)
          throw new DoguError(error.code, error.message.replace(`Statement "${trialTitle}": `, ''));
        throw error;
      } finally {
        client.destroy();
      }
    },
    async close() {
      for (const { client } of clients.values()) client.destroy();
      clients.clear();
    },
  };
}
