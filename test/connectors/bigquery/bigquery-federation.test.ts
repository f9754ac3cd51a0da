/**
 * BigQuery with workload identity federation (as for Cloud Storage, shared/connectors/google-auth/):
 * Dogu's ID token for the pool provider goes to a local Google STS, the federated token to a local
 * IAM Credentials generateAccessToken, and the token it returns is what BigQuery's jobs carry.
 * Both requests are asserted exactly; the token is kept per project environment until near expiry.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bigQueryConnectionSchema } from '../../../shared/connectors/bigquery/definition.ts';
import { bigQueryRuntime } from '../../../shared/connectors/bigquery/runtime.ts';
import type { EngineRun } from '../../../shared/domain/ports.ts';
import { startHttpServer, type TestServer } from '../../support/http-server.ts';
import { sqlRun } from '../athena/support.ts';
import { accessToken, type FakeBigQuery, startFakeBigQuery } from './fake-bigquery.ts';

const provider = 'projects/123456789012/locations/global/workloadIdentityPools/dogu-pool/providers/dogu';
const serviceAccount = 'dogu-runner@dogu-analytics.iam.gserviceaccount.com';
let fake: FakeBigQuery;
let google: TestServer;
let connection: Record<string, unknown>;
let refuseImpersonation = false;
const audiences: string[] = [];

beforeAll(async () => {
  fake = await startFakeBigQuery();
  google = await startHttpServer((request, response: ServerResponse) => {
    const send = (status: number, body: unknown) =>
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (request.url === '/v1/token') return send(200, { access_token: 'federated-token', expires_in: 3600 });
    if (refuseImpersonation)
      return send(403, {
        error: { code: 403, status: 'PERMISSION_DENIED', message: 'getAccessToken denied' },
      });
    return send(200, { accessToken, expireTime: new Date(Date.now() + 3600_000).toISOString() });
  });
  connection = {
    projectId: 'dogu-analytics',
    authentication: 'workload-identity',
    provider,
    serviceAccount,
    stsEndpoint: google.url,
    iamCredentialsEndpoint: google.url,
    apiEndpoint: fake.url,
  };
});
afterAll(async () => {
  await fake?.close();
  await google?.close();
});
beforeEach(() => {
  fake.server.requests.length = 0;
  google.requests.length = 0;
  audiences.length = 0;
  refuseImpersonation = false;
});

const run = (environmentId: string): EngineRun => ({
  ...sqlRun({ kind: 'bigquery', connection, statements: [{ title: 'One', sql: 'SELECT 1' }] }),
  key: `shop/wh/${environmentId}`,
  environmentId,
  identityToken: async (audience: string) => {
    audiences.push(audience);
    return { token: `dogu-id-token-${environmentId}`, expiresAt: new Date(Date.now() + 300_000) };
  },
});

describe('BigQuery with workload identity federation', () => {
  it('exchanges Dogu’s token at STS, impersonates the service account and runs the job with that token', async () => {
    fake.script({});
    const runtime = bigQueryRuntime({ pollMs: 1 });
    const [result] = await runtime.run(run('production'));
    expect(result).toMatchObject({ title: 'One', status: 'succeeded' });
    expect(audiences).toEqual([`https://iam.googleapis.com/${provider}`]);
    expect(google.requests.map((r) => [r.method, r.url, r.headers.authorization])).toEqual([
      ['POST', '/v1/token', undefined],
      [
        'POST',
        `/v1/projects/-/serviceAccounts/${serviceAccount}:generateAccessToken`,
        'Bearer federated-token',
      ],
    ]);
    expect(google.requests[0]!.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(Object.fromEntries(new URLSearchParams(google.requests[0]!.body.toString()))).toEqual({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      audience: `//iam.googleapis.com/${provider}`,
      scope: 'https://www.googleapis.com/auth/cloud-platform',
      requested_token_type: 'urn:ietf:params:oauth:token-type:access_token',
      subject_token: 'dogu-id-token-production',
      subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
    });
    expect(JSON.parse(google.requests[1]!.body.toString())).toEqual({
      scope: ['https://www.googleapis.com/auth/bigquery'],
      lifetime: '3600s',
    });
    const jobCalls = fake.server.requests.filter((r) => r.url.includes('/bigquery/v2/'));
    expect(jobCalls.length).toBeGreaterThan(0);
    for (const call of jobCalls) expect(call.headers.authorization).toBe(`Bearer ${accessToken}`);
    expect(fake.tokenRequests).toBe(0);
  });

  it('keeps the token for the same environment and exchanges again for another', async () => {
    fake.script({}, {}, {});
    const runtime = bigQueryRuntime({ pollMs: 1 });
    await runtime.run(run('production'));
    await runtime.run(run('production'));
    expect(google.requests.filter((r) => r.url === '/v1/token')).toHaveLength(1);
    await runtime.run(run('staging'));
    const subjects = google.requests
      .filter((r) => r.url === '/v1/token')
      .map((r) => new URLSearchParams(r.body.toString()).get('subject_token'));
    expect(subjects).toEqual(['dogu-id-token-production', 'dogu-id-token-staging']);
  });

  it('names the failing step and runs no job', async () => {
    refuseImpersonation = true;
    const runtime = bigQueryRuntime({ pollMs: 1 });
    const [result] = await runtime.run(run('development'));
    expect(result?.status).toBe('failed');
    expect(result?.error?.message).toMatch(
      /Step 3 \(IAM Credentials generateAccessToken, impersonating the service account\): Google answered HTTP 403: PERMISSION_DENIED: getAccessToken denied/,
    );
    expect(fake.inserts()).toHaveLength(0);
  });

  it('asks for the provider and the service account when they are missing, and checks their form', async () => {
    const runtime = bigQueryRuntime({ pollMs: 1 });
    const [result] = await runtime.run({
      ...run('development'),
      connection: { ...connection, serviceAccount: undefined },
    });
    expect(result?.error?.message).toContain(
      'Workload identity federation needs the provider and the service account; set both in the data source.',
    );
    expect(google.requests).toHaveLength(0);
    const bad = bigQueryConnectionSchema.safeParse({ ...connection, provider: 'dogu-pool' });
    expect(bad.error?.issues.map((issue) => issue.path)).toEqual([['provider']]);
  });

  it('sends neither Dogu’s token nor the federated one to a metadata address', async () => {
    const runtime = bigQueryRuntime({ pollMs: 1 });
    const toMetadata = async (endpoints: Record<string, string>) => {
      const [result] = await runtime.run({
        ...run('development'),
        connection: { ...connection, ...endpoints },
      });
      return result?.error?.message;
    };
    expect(await toMetadata({ stsEndpoint: 'http://169.254.169.254' })).toMatch(
      /^Step 2 \(Google STS token exchange\): could not be reached \(.*169\.254\.169\.254 is a link-local or cloud metadata address/,
    );
    expect(await toMetadata({ iamCredentialsEndpoint: 'http://169.254.169.254' })).toMatch(
      /^Step 3 \(IAM Credentials generateAccessToken, impersonating the service account\): could not be reached \(.*metadata address/,
    );
    expect(fake.inserts()).toHaveLength(0);
  });
});
