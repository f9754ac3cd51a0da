/** The Athena kind's runtime: one SDK client per data source and environment, statements in order. */
import { createHash } from 'node:crypto';
import { AthenaClient, GetDatabaseCommand } from '@aws-sdk/client-athena';
import { httpClientOptionsFromEnv } from '../../adapters/http/options-from-env.ts';
import { DoguError } from '../../domain/errors.ts';
import type { EngineRun } from '../../domain/ports.ts';
import {
  type AwsCredentialScope,
  type AwsCredentials,
  awsCredentialsOf,
} from '../aws-federation/aws-credentials.ts';
import { WebIdentityCredentials } from '../aws-federation/web-identity.ts';
import type { ConnectorRuntime } from '../connector.ts';
import type { SqlActionInput } from '../sql/definition.ts';
import { failedResult, runSqlStatements } from '../sql/run-sql.ts';
import { athenaError } from './athena-errors.ts';
import { runAthenaQuery } from './athena-query.ts';
import { type AthenaConnection, athenaAuthenticationOf } from './definition.ts';
import { checkAthenaEndpoint } from './endpoint-rule.ts';

export function createAthenaClient(connection: AthenaConnection, credentials?: AwsCredentials): AthenaClient {
  return new AthenaClient({
    region: connection.region,
    ...(connection.endpoint ? { endpoint: connection.endpoint } : {}),
    ...(credentials
      ? {
          credentials: {
            accessKeyId: credentials.accessKeyId,
            secretAccessKey: credentials.secretAccessKey,
            ...(credentials.sessionToken ? { sessionToken: credentials.sessionToken } : {}),
          },
        }
      : {}),
    maxAttempts: 3,
  });
}

/** Longer than the longest run (a job: 30 minutes): renewed credentials never cut a running query. */
const retiredClientMs = 31 * 60_000;

const trialTitle = 'test connection';

export function athenaRuntime(
  options: { pollMs?: number } = {},
  denyPrivateNetworks = httpClientOptionsFromEnv(process.env).denyPrivateNetworks ?? false,
  webIdentity = new WebIdentityCredentials(denyPrivateNetworks),
): ConnectorRuntime {
  const clients = new Map<string, { fingerprint: string; client: AthenaClient }>();
  const credentialsOf = (connection: AthenaConnection, scope: AwsCredentialScope) =>
    awsCredentialsOf(
      { ...connection, authentication: athenaAuthenticationOf(connection) },
      scope,
      webIdentity,
    );
  const clientFor = (
    key: string,
    connection: AthenaConnection,
    credentials?: AwsCredentials,
  ): AthenaClient => {
    // A hash, so the map holds no second copy of the secret.
    const fingerprint = createHash('sha256')
      .update(JSON.stringify([connection, credentials?.accessKeyId, credentials?.sessionToken]))
      .digest('hex');
    const known = clients.get(key);
    if (known?.fingerprint === fingerprint) return known.client;
    if (known) setTimeout(() => known.client.destroy(), retiredClientMs).unref();
    const client = createAthenaClient(connection, credentials);
    clients.set(key, { fingerprint, client });
    return client;
  };

  return {
    async run(run: EngineRun) {
      const connection = run.connection as AthenaConnection;
      const action = run.action as unknown as SqlActionInput;
      let credentials: AwsCredentials | undefined;
      try {
        await checkAthenaEndpoint(connection.endpoint, denyPrivateNetworks);
        credentials = await credentialsOf(connection, {
          projectId: run.dataSource.projectId,
          environmentId: run.environmentId,
          ...(run.identityToken ? { identityToken: run.identityToken } : {}),
          signal: run.signal,
        });
      } catch (error) {
        return [failedResult(action.statements[0]?.title ?? '', error as DoguError)];
      }
      const client = clientFor(run.key, connection, credentials);
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
      const scope = {
        projectId: check.projectId ?? '',
        environmentId: check.environmentId ?? '',
        ...(check.identityToken ? { identityToken: check.identityToken } : {}),
        signal: check.signal,
      };
      // OIDC: "check the trust" is a real exchange, never cached, so a fixed trust policy shows at once.
      const credentials =
        connection.authentication === 'oidc' && connection.roleArn && connection.audience
          ? await webIdentity.exchange({
              region: connection.region,
              roleArn: connection.roleArn,
              audience: connection.audience,
              ...(connection.stsEndpoint ? { stsEndpoint: connection.stsEndpoint } : {}),
              ...scope,
            })
          : await credentialsOf(connection, scope);
      const client = createAthenaClient(connection, credentials);
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
      webIdentity.close();
    },
  };
}

/** The module's entry for the engines' loader (shared/connectors/runtimes.ts). */
export const createRuntime = () => athenaRuntime();
