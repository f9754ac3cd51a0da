/**
 * The identity front door end to end, all through the APIs: a service account
 * and a glob trust policy made with the management API, a real HTTPS IdP
 * issuing a CI-style token, the exchange, an execution as the account, and the
 * audit log naming it; then revocation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import { apiClient } from '../support/api.ts';
import { createTestCa, startTestIdp, type TestIdp } from '../support/oidc-idp.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

let runtime: LocalRuntime;
let database: TestDatabase;
let dir: Awaited<ReturnType<typeof tempDir>>;
let idp: TestIdp;
let admin: ReturnType<typeof apiClient>;
const p = '/api/v1/projects/demo';

async function exchange(subjectToken: string, extra: Record<string, unknown> = {}) {
  const response = await fetch(`${runtime.url}/public/v1/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      subject_token: subjectToken,
      subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
      ...extra,
    }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  const ca = await createTestCa();
  process.env.DOGU_OIDC_EXTRA_CA_FILE = ca.caFile;
  process.env.DOGU_SERVICE_ACCOUNT_CACHE_MS = '0';
  idp = await startTestIdp(ca);
  dir = await tempDir('identity');
  database = await createTestDatabase();
  runtime = await startTestRuntime(dir.path, { demoDatabaseUrl: database.url });
  admin = apiClient(runtime, await loginToken(runtime));
});
afterAll(async () => {
  await runtime?.close();
  await dir?.remove();
  await database?.drop();
  await idp?.close();
});

describe('service account, trust policy, exchange, execution', () => {
  let accountId: string;

  it('creates the account with a role and a glob policy through the management API', async () => {
    const created = await admin.post(`${p}/service-accounts`, { name: 'deployer', role: 'member' });
    expect(created.status).toBe(201);
    accountId = created.body.id;
    expect(created.body.email).toBe('deployer@demo.sa.dogu');
    const policy = await admin.put(`${p}/service-accounts/${accountId}/trust-policies/github-main`, {
      issuer: idp.issuer,
      audience: 'dogu',
      boundClaims: [{ key: 'sub', pattern: 'repo:acme-*/app-*:ref:refs/heads/main' }],
    });
    expect(policy.status, JSON.stringify(policy.body)).toBe(201);
  });

  it('exchanges a matching ID token (immutable-id sub form) and runs an action as the account', async () => {
    const idToken = await idp.sign({ sub: 'repo:acme-123456/app-456789:ref:refs/heads/main' });
    const { status, body } = await exchange(idToken);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      issued_token_type: 'urn:ietf:params:oauth:token-type:access_token',
      token_type: 'Bearer',
      expires_in: 3600,
    });
    const asAccount = apiClient(runtime, body.access_token as string);
    const run = await asAccount.execute('list-orders', { status: 'paid', limit: 1 });
    expect(run.status).toBe(200);
    expect(run.body.executedBy).toEqual({
      kind: 'service_account',
      id: accountId,
      email: 'deployer@demo.sa.dogu',
    });

    const { entries } = await runtime.services.audit.list({
      projectId: 'demo',
      event: 'execution.run',
      limit: 5,
    });
    expect(entries[0]).toMatchObject({ actor: { kind: 'service_account', id: accountId } });
    const exchanges = await runtime.services.audit.list({
      projectId: 'demo',
      event: 'token.exchange',
      limit: 5,
    });
    expect(exchanges.entries[0]?.actor.id).toBe(accountId);
  });

  it('refuses a token whose sub the glob does not cover, and one for another branch', async () => {
    for (const sub of ['repo:evil/app-1:ref:refs/heads/main', 'repo:acme-1/app-1:ref:refs/heads/dev']) {
      const { status, body } = await exchange(await idp.sign({ sub }));
      expect(status).toBe(400);
      expect(body.error).toBe('invalid_grant');
      expect(Object.keys(body).sort()).toEqual(['error', 'error_description']);
    }
  });

  it('with directIdTokens set through the settings route, the ID token itself is accepted as Bearer', async () => {
    const idToken = await idp.sign({ sub: 'repo:acme-7/app-7:ref:refs/heads/main' });
    expect(
      (await apiClient(runtime, idToken).execute('list-orders', { status: 'paid', limit: 1 })).status,
    ).toBe(401);
    const settings = await admin.put(`${p}/settings`, { directIdTokens: true });
    expect(settings.status).toBe(200);
    expect(settings.body.directIdTokens).toBe(true);
    const run = await apiClient(runtime, idToken).execute('list-orders', { status: 'paid', limit: 1 });
    expect(run.status).toBe(200);
    expect(run.body.executedBy.kind).toBe('service_account');
    await admin.put(`${p}/settings`, { directIdTokens: false });
  });

  it('revoking the account tokens turns the access token away with 401 unauthorized', async () => {
    const { body } = await exchange(await idp.sign({ sub: 'repo:acme-1/app-1:ref:refs/heads/main' }));
    const asAccount = apiClient(runtime, body.access_token as string);
    expect((await asAccount.execute('list-orders', { status: 'paid', limit: 1 })).status).toBe(200);
    expect((await admin.post(`${p}/service-accounts/${accountId}/revoke-tokens`, {})).status).toBeLessThan(
      300,
    );
    const refused = await asAccount.execute('list-orders', { status: 'paid', limit: 1 });
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('unauthorized');
  });
});
