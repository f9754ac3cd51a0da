/**
 * Token exchange (spec 4.1, 5.1, 7.1) on a real embedded runtime, with real
 * HTTPS identity providers on 127.0.0.1 whose certificates come from a test
 * CA: the JWT attack matrix at the token endpoint and with the direct
 * ID-token variant, random bodies, and the path from an ID token to an
 * audited execution as the service account, then revocation.
 */
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { type CryptoKey, decodeProtectedHeader, exportSPKI, importJWK, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import type { ServiceAccount, TrustPolicy } from '../../shared/domain/identity/model.ts';
import { startHttpServer, type TestServer } from '../support/http-server.ts';
import {
  b64url,
  createTestCa,
  type SigningKey,
  signingKey,
  startTestIdp,
  type TestCa,
  type TestIdp,
} from '../support/oidc-idp.ts';
import { executionsPath, loginToken, postJson, startTestRuntime, tempDir } from '../support/runtime.ts';

const grant = 'urn:ietf:params:oauth:grant-type:token-exchange';
const jwtType = 'urn:ietf:params:oauth:token-type:jwt';
const mainSub = 'repo:acme/app:ref:refs/heads/main';

let runtime: LocalRuntime;
let dir: Awaited<ReturnType<typeof tempDir>>;
let ca: TestCa;
let idp: TestIdp;
let httpJwksIdp: TestIdp;
let plainJwks: TestServer;
let attackerJwks: TestServer;
let attackerKey: SigningKey;
let account: ServiceAccount;
let policy: TrustPolicy;
const now = () => Math.floor(Date.now() / 1000);

const identities = () => runtime.services.oidc.identities;

function serviceAccount(projectId: string, name: string): ServiceAccount {
  const at = new Date().toISOString();
  return {
    projectId,
    id: `sa_${name}`,
    email: `${name}@${projectId}.sa.dogu`,
    name,
    createdAt: at,
    updatedAt: at,
    tokenGeneration: 1,
  };
}

let policySeq = 0;
function trustPolicy(sa: ServiceAccount, issuer: string, sub: string): TrustPolicy {
  const at = new Date().toISOString();
  return {
    projectId: sa.projectId,
    serviceAccountId: sa.id,
    id: `tp_${String(++policySeq).padStart(4, '0')}`,
    issuer,
    audience: 'dogu',
    boundClaims: [{ key: 'sub', pattern: sub }],
    createdAt: at,
    updatedAt: at,
    generation: 1,
  };
}

beforeAll(async () => {
  ca = await createTestCa();
  process.env.DOGU_OIDC_EXTRA_CA_FILE = ca.caFile;
  // Revocation must show at once in these tests; production caches the check for seconds.
  process.env.DOGU_SERVICE_ACCOUNT_CACHE_MS = '0';
  idp = await startTestIdp(ca);
  httpJwksIdp = await startTestIdp(ca, { path: '/plain' });
  plainJwks = await startHttpServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ keys: httpJwksIdp.keys.map((k) => k.publicJwk) }));
  });
  httpJwksIdp.discovery = { ...httpJwksIdp.discovery, jwks_uri: `${plainJwks.url}/jwks` };
  attackerKey = await signingKey('attacker');
  attackerJwks = await startHttpServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ keys: [attackerKey.publicJwk] }));
  });

  dir = await tempDir('token-exchange');
  runtime = await startTestRuntime(dir.path);
  account = serviceAccount('demo', 'deployer');
  await identities().saveServiceAccount(account, true);
  policy = trustPolicy(account, idp.issuer, mainSub);
  await identities().saveTrustPolicy(policy);
  await identities().saveTrustPolicy(trustPolicy(account, httpJwksIdp.issuer, mainSub));
  await runtime.services.store.putMembership({ projectId: 'demo', principalId: account.id, role: 'member' });

  // The direct variant: a project that accepts ID tokens as Bearer, with its own account and policy.
  await runtime.services.store.createProject({
    id: 'direct',
    name: 'Direct',
    createdAt: new Date().toISOString(),
    directIdTokens: true,
  });
  const directAccount = serviceAccount('direct', 'runner');
  await identities().saveServiceAccount(directAccount, true);
  await identities().saveTrustPolicy(trustPolicy(directAccount, idp.issuer, mainSub));
  await identities().saveTrustPolicy(trustPolicy(directAccount, httpJwksIdp.issuer, mainSub));
  await runtime.services.store.putMembership({
    projectId: 'direct',
    principalId: directAccount.id,
    role: 'member',
  });
}, 120_000);

afterAll(async () => {
  await runtime?.close();
  await dir?.remove();
  await Promise.all([idp?.close(), httpJwksIdp?.close(), plainJwks?.close(), attackerJwks?.close()]);
  await ca?.remove();
});

const exchangeBody = (subjectToken: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ grant_type: grant, subject_token: subjectToken, subject_token_type: jwtType, ...extra });

async function exchange(body: string, contentType: string | null = 'application/json') {
  return postJson(runtime, '/public/v1/token', { body, contentType });
}

function expectOAuthError(
  response: { status: number; headers: Headers; body: Record<string, unknown> },
  status: number,
  error: string,
) {
  expect({ status: response.status, body: response.body }).toMatchObject({ status, body: { error } });
  expect(Object.keys(response.body).sort()).toEqual(['error', 'error_description']);
  expect(response.body.error_description).toMatch(/^[\x20-\x21\x23-\x5b\x5d-\x7e]+$/);
  expect(response.headers.get('content-type')).toBe('application/json');
}

/** A token signed with HMAC: for the HS256-with-the-public-key confusion. */
function hmacToken(header: Record<string, unknown>, payload: JWTPayload, secret: string | Buffer) {
  const input = `${b64url(header)}.${b64url(payload)}`;
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
}

const validClaims = (): JWTPayload => ({
  iss: idp.issuer,
  aud: 'dogu',
  sub: mainSub,
  iat: now(),
  exp: now() + 300,
});

/** Every forged, broken or unacceptable subject token, with the refusal's description. */
async function attackTokens(): Promise<[string, string][]> {
  const key = idp.keys[0]!;
  const publicPem = await exportSPKI((await importJWK(key.publicJwk, key.alg)) as CryptoKey);
  const header = { alg: 'RS256', kid: key.kid, typ: 'JWT' };
  const unsigned = `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(validClaims())}.`;
  return [
    ['alg none', unsigned],
    ['alg none with the real kid', `${b64url({ ...header, alg: 'none' })}.${b64url(validClaims())}.`],
    [
      'HS256 signed with the public key (PEM)',
      hmacToken({ ...header, alg: 'HS256' }, validClaims(), publicPem),
    ],
    [
      'HS256 signed with the public JWK n',
      hmacToken(
        { ...header, alg: 'HS256' },
        validClaims(),
        Buffer.from(String(key.publicJwk.n), 'base64url'),
      ),
    ],
    ['unknown kid', await idp.sign({}, { key: attackerKey })],
    [
      'injected kid of the real key, signed by another',
      await idp.sign({}, { key: { ...attackerKey, kid: key.kid } }),
    ],
    [
      'jku, x5u and embedded jwk headers to an attacker key',
      await idp.sign(
        {},
        {
          key: attackerKey,
          header: {
            jku: `${attackerJwks.url}/jwks`,
            x5u: `${attackerJwks.url}/cert`,
            jwk: attackerKey.publicJwk,
          },
        },
      ),
    ],
    ['expired', await idp.sign({ iat: now() - 4000, exp: now() - 3600 })],
    ['not yet valid (nbf)', await idp.sign({ nbf: now() + 3600, exp: now() + 7200 })],
    ['issued in the future (iat)', await idp.sign({ iat: now() + 3600, exp: now() + 7200 })],
    ['wrong aud', await idp.sign({ aud: 'someone-else' })],
    ['wrong issuer', await idp.sign({ iss: 'https://evil.example' })],
    ['issuer with a trailing slash', await idp.sign({ iss: `${idp.issuer}/` })],
    ['missing iss', await idp.sign({ iss: undefined })],
    ['missing aud', await idp.sign({ aud: undefined })],
    ['missing exp', await idp.sign({ exp: undefined })],
    ['missing sub (bound claim)', await idp.sign({ sub: undefined })],
    // Registered claims are strings: an array sub must not match the bound claim by one element.
    ['sub an array holding the bound value', await idp.sign({ sub: [mainSub, 'x'] as unknown as string })],
    ['sub an array of the bound value alone', await idp.sign({ sub: [mainSub] as unknown as string })],
    ['sub an object', await idp.sign({ sub: { value: mainSub } as unknown as string })],
    ['bound claim mismatch', await idp.sign({ sub: 'repo:acme/app:ref:refs/heads/feature' })],
    ['issuer whose JWKS is plain HTTP', await httpJwksIdp.sign()],
    ['token over 16 KB', await idp.sign({ padding: 'x'.repeat(20_000) })],
    ['malformed base64', 'e30.%%%not-base64%%%.c2ln'],
    ['not a JWT', 'hello'],
    ['three dots', '...'],
    ['payload not JSON', `${b64url(header)}.${b64url('not json')}.c2ln`],
    ['tampered payload', tamper(await idp.sign())],
  ];
}

function tamper(token: string): string {
  const [h, , s] = token.split('.');
  return `${h}.${b64url({ ...validClaims(), sub: mainSub, admin: true })}.${s}`;
}

describe('POST /public/v1/token', () => {
  it('exchanges a valid ID token for a Bearer access token', async () => {
    const response = await exchange(exchangeBody(await idp.sign()));
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      access_token: expect.any(String),
      issued_token_type: 'urn:ietf:params:oauth:token-type:access_token',
      token_type: 'Bearer',
      expires_in: 3600,
    });
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('refuses every attack token with 400 invalid_grant and never contacts a jku/x5u URL', async () => {
    const outcomes: Record<string, unknown> = {};
    for (const [name, token] of await attackTokens()) {
      const response = await exchange(exchangeBody(token));
      outcomes[name] = `${response.status} ${response.body?.error}`;
      expectOAuthError(response, 400, 'invalid_grant');
    }
    expect(attackerJwks.requests).toEqual([]);
    expect(plainJwks.requests).toEqual([]);
    expect(Object.values(outcomes).every((o) => o === '400 invalid_grant')).toBe(true);
  });

  it('accepts a genuine token that carries jku/x5u/jwk headers, and still never fetches them', async () => {
    const token = await idp.sign(
      {},
      {
        header: {
          jku: `${attackerJwks.url}/jwks`,
          x5u: `${attackerJwks.url}/x5u`,
          jwk: attackerKey.publicJwk,
        },
      },
    );
    expect(decodeProtectedHeader(token).jku).toContain(attackerJwks.url);
    expect((await exchange(exchangeBody(token))).status).toBe(200);
    expect(attackerJwks.requests).toEqual([]);
  });

  it('refuses bad requests with the statuses of spec 7.1', async () => {
    const token = await idp.sign();
    expectOAuthError(await exchange('{not json'), 400, 'invalid_request');
    expectOAuthError(await exchange(''), 400, 'invalid_request');
    expectOAuthError(await exchange('[1,2]'), 400, 'invalid_request');
    expectOAuthError(await exchange(exchangeBody('x'.repeat(1024 * 1024))), 400, 'invalid_request');
    expectOAuthError(await exchange(exchangeBody(token), 'text/plain'), 415, 'invalid_request');
    expectOAuthError(
      await exchange(exchangeBody(token), 'application/x-www-form-urlencoded'),
      415,
      'invalid_request',
    );
    expectOAuthError(await exchange(exchangeBody(token), null), 415, 'invalid_request');
    expectOAuthError(
      await exchange(exchangeBody(token, { grant_type: 'client_credentials' })),
      422,
      'invalid_request',
    );
    expectOAuthError(await exchange(exchangeBody(token, { grant_type: undefined })), 422, 'invalid_request');
    expectOAuthError(
      await exchange(exchangeBody(token, { subject_token_type: 'jwt' })),
      422,
      'invalid_request',
    );
    expectOAuthError(
      await exchange(exchangeBody(token, { subject_token_type: undefined })),
      422,
      'invalid_request',
    );
    expectOAuthError(await exchange(exchangeBody(token, { subject_token: 42 })), 422, 'invalid_request');
    expectOAuthError(
      await exchange(exchangeBody(token, { service_account_email: 7 })),
      422,
      'invalid_request',
    );
    // Narrowed to an account the token does not match: refused like any other non-matching token.
    expectOAuthError(
      await exchange(exchangeBody(token, { service_account_email: 'nobody@demo.sa.dogu' })),
      400,
      'invalid_grant',
    );
  });

  it('answers random bodies and content types without a 500 or a hang', async () => {
    const bodies = fc.oneof(
      fc.json(),
      fc.string(),
      fc
        .record({
          grant_type: fc.oneof(fc.constant(grant), fc.string()),
          subject_token: fc.oneof(fc.string(), fc.constant('a.b.c'), fc.jsonValue()),
          subject_token_type: fc.oneof(fc.constant(jwtType), fc.string()),
          service_account_email: fc.oneof(fc.string(), fc.jsonValue()),
        })
        .map((value) => JSON.stringify(value)),
    );
    const contentTypes = fc.oneof(
      fc.constant('application/json'),
      fc.constant('application/json; charset=utf-8'),
      fc.stringMatching(/^[\x21-\x7e]{1,30}$/),
    );
    await fc.assert(
      fc.asyncProperty(bodies, contentTypes, async (body, contentType) => {
        const response = await exchange(body, contentType);
        expect([400, 415, 422]).toContain(response.status);
        expect(Object.keys(response.body).sort()).toEqual(['error', 'error_description']);
      }),
      { numRuns: 300, interruptAfterTimeLimit: 60_000 },
    );
  }, 90_000);
});

describe('the direct ID-token variant (Project.directIdTokens)', () => {
  const directPath = '/public/v1/projects/direct/environments/development/executions/exe_none';
  const getWith = async (token: string, path = directPath) => {
    const response = await fetch(`${runtime.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
  };

  it('accepts a valid ID token as Bearer in a project that allows it, and only there', async () => {
    const token = await idp.sign();
    const accepted = await getWith(token);
    expect(accepted.status).not.toBe(401);
    const elsewhere = await getWith(
      token,
      '/public/v1/projects/demo/environments/development/executions/exe_none',
    );
    expect(elsewhere).toMatchObject({ status: 401, body: { code: 'unauthorized' } });
  });

  it('refuses every attack token with 401 unauthorized Problem Details', async () => {
    for (const [name, token] of await attackTokens()) {
      const response = await getWith(token);
      // Node's HTTP server refuses headers over 16 KB itself (431) before Dogu sees the token.
      if (name === 'token over 16 KB' && response.status === 431) continue;
      expect({ name, status: response.status, code: response.body.code }).toEqual({
        name,
        status: 401,
        code: 'unauthorized',
      });
    }
    expect(attackerJwks.requests).toEqual([]);
    expect(plainJwks.requests).toEqual([]);
  });

  it('still accepts Dogu login tokens', async () => {
    expect((await getWith(await loginToken(runtime))).status).not.toBe(401);
  });
});

describe('an exchanged token on the public API', () => {
  const listOrders = executionsPath('demo', 'development', 'list-orders');
  const run = (token: string) =>
    postJson(runtime, listOrders, {
      token,
      body: JSON.stringify({ arguments: { status: 'shipped', limit: 1 } }),
    });
  const exchangeForToken = async () => {
    const response = await exchange(exchangeBody(await idp.sign(), { service_account_email: account.email }));
    expect(response.status).toBe(200);
    return response.body.access_token as string;
  };

  it('runs an action as the service account, and the audit log names it', async () => {
    const token = await exchangeForToken();
    const me = await fetch(`${runtime.url}/public/v1/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(await me.json()).toEqual({
      kind: 'service_account',
      id: account.id,
      email: account.email,
      name: 'deployer',
    });
    const response = await run(token);
    expect(response.status).toBe(200);
    expect(response.body.executedBy).toMatchObject({ kind: 'service_account', id: account.id });
    const { entries } = await runtime.services.audit.list({ projectId: 'demo', actorId: account.id });
    expect(entries.map((e) => e.event)).toEqual(expect.arrayContaining(['token.exchange', 'execution.run']));
    expect(entries.find((e) => e.event === 'token.exchange')).toMatchObject({
      actor: { kind: 'service_account', id: account.id, email: account.email },
      target: { type: 'service_account', id: account.id },
      details: { trustPolicyId: policy.id, issuer: idp.issuer, subject: mainSub },
    });
  });

  it('stops working when the tokenGeneration is bumped, the account disabled or deleted', async () => {
    const token = await exchangeForToken();
    expect((await run(token)).status).toBe(200);
    const current = (await identities().getServiceAccount('demo', account.id))!;
    await identities().saveServiceAccount(
      { ...current, tokenGeneration: current.tokenGeneration + 1 },
      false,
    );
    expect((await run(token)).body).toMatchObject({ status: 401, code: 'unauthorized' });

    const second = await exchangeForToken();
    expect((await run(second)).status).toBe(200);
    const bumped = (await identities().getServiceAccount('demo', account.id))!;
    await identities().saveServiceAccount({ ...bumped, disabled: true }, false);
    expect((await run(second)).status).toBe(401);
    expectOAuthError(
      await exchange(exchangeBody(await idp.sign(), { service_account_email: account.email })),
      400,
      'invalid_grant',
    );
    await identities().saveServiceAccount(bumped, false);
    expect((await run(second)).status).toBe(200);
  });

  it('stops working when its trust policy is changed or deleted', async () => {
    const token = await exchangeForToken();
    await identities().saveTrustPolicy({ ...policy, generation: policy.generation + 1 });
    expect((await run(token)).status).toBe(401);
    const second = await exchangeForToken();
    expect((await run(second)).status).toBe(200);
    await identities().deleteTrustPolicy('demo', policy.id);
    expect((await run(second)).body).toMatchObject({ status: 401, code: 'unauthorized' });
    expectOAuthError(
      await exchange(exchangeBody(await idp.sign(), { service_account_email: account.email })),
      400,
      'invalid_grant',
    );
  });
});
