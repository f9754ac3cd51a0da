/**
 * Athena in OIDC mode (the S3 kind's federation, shared in shared/connectors/aws-federation/):
 * Dogu's ID token for the data source's audience goes to STS AssumeRoleWithWebIdentity exactly
 * once while the credentials last, and Athena then signs with those temporary credentials.
 */
import {
  AthenaClient,
  GetDatabaseCommand,
  GetQueryExecutionCommand,
  GetQueryResultsCommand,
  StartQueryExecutionCommand,
} from '@aws-sdk/client-athena';
import { AssumeRoleWithWebIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { athenaConnectionSchema } from '../../../shared/connectors/athena/definition.ts';
import { athenaRuntime } from '../../../shared/connectors/athena/runtime.ts';
import type { EngineRun } from '../../../shared/domain/ports.ts';
import { sqlRun } from './support.ts';

const athena = mockClient(AthenaClient);
const sts = mockClient(STSClient);
beforeEach(() => {
  athena.reset();
  sts.reset();
  athena.on(StartQueryExecutionCommand).resolves({ QueryExecutionId: 'q-1' });
  athena.on(GetQueryExecutionCommand).resolves({
    QueryExecution: { QueryExecutionId: 'q-1', StatementType: 'DML', Status: { State: 'SUCCEEDED' } },
  });
  athena
    .on(GetQueryResultsCommand)
    .resolves({ ResultSet: { ResultSetMetadata: { ColumnInfo: [] }, Rows: [] } });
});
afterEach(() => {
  athena.reset();
  sts.reset();
});

const roleArn = 'arn:aws:iam::123456789012:role/dogu-athena';
const oidcConnection = {
  region: 'ap-northeast-1',
  database: 'sales',
  outputLocation: 's3://dogu-results/athena/',
  authentication: 'oidc',
  audience: 'sts.amazonaws.com/dogu-test',
  roleArn,
};
const audiences: string[] = [];
const identityToken = async (audience: string) => {
  audiences.push(audience);
  return { token: `id-token-for-${audience}`, expiresAt: new Date(Date.now() + 300_000) };
};
const oidcRun = (connection: Record<string, unknown> = oidcConnection): EngineRun => {
  const run = sqlRun({ kind: 'athena', connection, statements: [{ title: 'Count', sql: 'SELECT 1' }] });
  return {
    ...run,
    key: 'shop/wh/production',
    dataSource: { ...run.dataSource, projectId: 'shop' },
    environmentId: 'production',
    identityToken,
  };
};
const signingCredentials = async (call: number) => {
  const client = athena.commandCalls(StartQueryExecutionCommand)[call]?.thisValue as AthenaClient;
  const provider = client.config.credentials as unknown as () => Promise<Record<string, unknown>>;
  return provider();
};

describe('Athena with OIDC role credentials', () => {
  it('assumes the role with the exact STS request and signs Athena calls with its credentials', async () => {
    audiences.length = 0;
    sts.on(AssumeRoleWithWebIdentityCommand).resolves({
      Credentials: {
        AccessKeyId: 'ASIATEMPORARY',
        SecretAccessKey: 'temporary-secret',
        SessionToken: 'session-1',
        Expiration: new Date(Date.now() + 3600_000),
      },
    });
    const runtime = athenaRuntime({ pollMs: 1 });
    const [first] = await runtime.run(oidcRun());
    const [second] = await runtime.run(oidcRun());
    expect(first).toMatchObject({ status: 'succeeded' });
    expect(second).toMatchObject({ status: 'succeeded' });
    // Cached until shortly before expiry: one exchange for both runs.
    expect(sts.commandCalls(AssumeRoleWithWebIdentityCommand).map((call) => call.args[0].input)).toEqual([
      {
        RoleArn: roleArn,
        RoleSessionName: 'dogu-shop-production',
        WebIdentityToken: 'id-token-for-sts.amazonaws.com/dogu-test',
        DurationSeconds: 3600,
      },
    ]);
    expect(audiences).toEqual(['sts.amazonaws.com/dogu-test']);
    expect(await signingCredentials(0)).toMatchObject({
      accessKeyId: 'ASIATEMPORARY',
      secretAccessKey: 'temporary-secret',
      sessionToken: 'session-1',
    });
    await runtime.close?.();
  });

  it('exchanges again when the cached credentials are about to expire, and signs with the new ones', async () => {
    sts
      .on(AssumeRoleWithWebIdentityCommand)
      .resolvesOnce({
        Credentials: {
          AccessKeyId: 'ASIAFIRST',
          SecretAccessKey: 'first-secret',
          SessionToken: 'session-old',
          // Inside the five-minute renewal window: the next run must not reuse them.
          Expiration: new Date(Date.now() + 60_000),
        },
      })
      .resolves({
        Credentials: {
          AccessKeyId: 'ASIASECOND',
          SecretAccessKey: 'second-secret',
          SessionToken: 'session-new',
          Expiration: new Date(Date.now() + 3600_000),
        },
      });
    const runtime = athenaRuntime({ pollMs: 1 });
    await runtime.run(oidcRun());
    await runtime.run(oidcRun());
    expect(sts.commandCalls(AssumeRoleWithWebIdentityCommand)).toHaveLength(2);
    expect(await signingCredentials(1)).toMatchObject({
      accessKeyId: 'ASIASECOND',
      sessionToken: 'session-new',
    });
    await runtime.close?.();
  });

  it('names the failed STS step in the statement result and never starts a query', async () => {
    sts.on(AssumeRoleWithWebIdentityCommand).rejects(new Error('connect ECONNREFUSED'));
    const runtime = athenaRuntime({ pollMs: 1 });
    const [result] = await runtime.run(oidcRun());
    expect(result?.status).toBe('failed');
    expect(result?.error?.message).toContain('Step 2 (AWS STS AssumeRoleWithWebIdentity)');
    expect(athena.commandCalls(StartQueryExecutionCommand)).toHaveLength(0);
    await runtime.close?.();
  });

  it('asks for the audience and role ARN when OIDC lacks them', async () => {
    const runtime = athenaRuntime({ pollMs: 1 });
    const [result] = await runtime.run(oidcRun({ ...oidcConnection, roleArn: undefined }));
    expect(result?.error?.message).toBe(
      'OIDC authentication needs an audience and an IAM role ARN; set both in the data source.',
    );
    expect(sts.commandCalls(AssumeRoleWithWebIdentityCommand)).toHaveLength(0);
    await runtime.close?.();
  });

  it('uses the function role without keys and the stored keys in keys mode', async () => {
    const runtime = athenaRuntime({ pollMs: 1 });
    const { authentication: _, audience: __, roleArn: ___, ...base } = oidcConnection;
    await runtime.run(
      oidcRun({ ...base, authentication: 'keys', accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'k' }),
    );
    expect(await signingCredentials(0)).toMatchObject({
      accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
      secretAccessKey: 'k',
    });
    expect(sts.commandCalls(AssumeRoleWithWebIdentityCommand)).toHaveLength(0);
    await runtime.close?.();
  });

  it('checks the trust with a fresh exchange on every connection test, then asks Glue with those credentials', async () => {
    sts.on(AssumeRoleWithWebIdentityCommand).resolves({
      Credentials: {
        AccessKeyId: 'ASIACHECK',
        SecretAccessKey: 'check-secret',
        SessionToken: 'session-check',
        Expiration: new Date(Date.now() + 3600_000),
      },
    });
    athena.on(GetDatabaseCommand).resolves({ Database: { Name: 'sales' } });
    const runtime = athenaRuntime({ pollMs: 1 });
    const check = {
      key: 'shop/wh/production',
      projectId: 'shop',
      environmentId: 'production',
      connection: oidcConnection,
      signal: AbortSignal.timeout(5000),
      identityToken,
    };
    await runtime.testConnection(check);
    await runtime.testConnection(check);
    expect(sts.commandCalls(AssumeRoleWithWebIdentityCommand)).toHaveLength(2);
    const glue = athena.commandCalls(GetDatabaseCommand)[0]!;
    expect(glue.args[0].input).toEqual({ CatalogName: 'AwsDataCatalog', DatabaseName: 'sales' });
    const provider = (glue.thisValue as AthenaClient).config.credentials as unknown as () => Promise<
      Record<string, unknown>
    >;
    expect(await provider()).toMatchObject({ accessKeyId: 'ASIACHECK', sessionToken: 'session-check' });
    await runtime.close?.();
  });

  it('accepts the three modes and refuses a malformed role ARN', () => {
    expect(athenaConnectionSchema.safeParse(oidcConnection).success).toBe(true);
    const bad = athenaConnectionSchema.safeParse({ ...oidcConnection, roleArn: 'dogu-athena' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['roleArn']);
    expect(athenaConnectionSchema.safeParse({ ...oidcConnection, authentication: 'saml' }).success).toBe(
      false,
    );
  });
});
