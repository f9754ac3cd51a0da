/**
 * People connect MCP clients with OAuth (docs/agents.md, decisions 0230–0233): the SDK's own client
 * against a real embedded runtime over HTTP — discovery from the 401, registration, the consent
 * answered as the signed-in person, code + PKCE, tools as that person, refresh with rotation,
 * revocation — and every refusal an OAuth client must understand, as RFC 6749 error JSON.
 */
import {
  auth,
  extractWWWAuthenticateParams,
  UnauthorizedError,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import { hashOf } from '../../shared/domain/agents/oauth/deps.ts';
import type { Principal } from '../../shared/domain/model.ts';
import { apiClient } from '../support/api.ts';
import { MemoryOAuthProvider, postForm } from '../support/mcp-oauth-client.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

let runtime: LocalRuntime;
let dir: Awaited<ReturnType<typeof tempDir>>;
let adminToken: string;
let memberToken: string;
const redirectUrl = 'http://127.0.0.1:47999/callback';
const member: Principal = {
  kind: 'user',
  id: 'usr_oauthmember',
  email: 'oauth-member@example.com',
  name: 'Member',
};
const open: Client[] = [];

const endpoint = (environment = 'development') =>
  new URL(`${runtime.url}/mcp/projects/demo/environments/${environment}`);

/** The person's part: open the authorization URL, see the request, answer it (signed in by token). */
async function consent(authorizationUrl: URL, token: string, decision: 'allow' | 'deny' = 'allow') {
  const started = await fetch(authorizationUrl, { redirect: 'manual' });
  expect(started.status, await started.clone().text()).toBe(302);
  const consentPath = started.headers.get('location')!;
  expect(consentPath).toMatch(/^\/connect\/[A-Za-z0-9_-]{43}$/);
  const requestId = consentPath.split('/').pop()!;
  const person = apiClient(runtime, token);
  const shown = await person.get(`/oauth/requests/${requestId}`);
  expect(shown.status, JSON.stringify(shown.body)).toBe(200);
  const decided = await person.post(`/oauth/requests/${requestId}`, { decision });
  expect(decided.status, JSON.stringify(decided.body)).toBe(200);
  return { shown: shown.body, redirectTo: new URL(decided.body.redirectTo as string), requestId };
}

/** Connects with OAuth from nothing: the first connect is refused with 401, the person allows, the code is exchanged. */
async function connectWithOAuth(token: string, clientName = 'Test Agent', environment = 'development') {
  const provider = new MemoryOAuthProvider(redirectUrl, clientName);
  const first = new StreamableHTTPClientTransport(endpoint(environment), { authProvider: provider });
  await expect(new Client({ name: 'self-declared', version: '1' }).connect(first)).rejects.toBeInstanceOf(
    UnauthorizedError,
  );
  const { redirectTo, shown } = await consent(provider.authorizationUrl!, token);
  await first.finishAuth(redirectTo.searchParams.get('code')!);
  const client = new Client({ name: 'self-declared', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(endpoint(environment), { authProvider: provider }));
  open.push(client);
  return { provider, client, shown };
}

const toolNames = async (client: Client) => (await client.listTools()).tools.map((t) => t.name).sort();

/** A code as the consent screen would give it, for the refusals of the token endpoint. */
async function freshCode() {
  const provider = new MemoryOAuthProvider(redirectUrl);
  const result = await auth(provider, { serverUrl: endpoint() });
  expect(result).toBe('REDIRECT');
  const { redirectTo } = await consent(provider.authorizationUrl!, adminToken);
  return { provider, code: redirectTo.searchParams.get('code')!, clientId: provider.client!.client_id };
}

beforeAll(async () => {
  dir = await tempDir('mcp-oauth');
  runtime = await startTestRuntime(dir.path);
  adminToken = await loginToken(runtime);
  await runtime.services.store.createUser({ ...member, createdAt: new Date().toISOString() });
  await runtime.services.store.putMembership({ projectId: 'demo', principalId: member.id, role: 'member' });
  memberToken = (await runtime.services.tokens.issue(member, 3600)).token;
  const admin = apiClient(runtime, adminToken);
  const adminsOnly = {
    id: 'oauth-admins-only',
    name: 'Admins only',
    kind: 'sql',
    dataSourceId: 'demo-postgres',
    statements: [{ title: 'one', sql: 'SELECT 1 AS one' }],
    permission: { mode: 'restricted', roles: ['admin'] },
  };
  expect((await admin.put(`/api/v1/projects/demo/actions/${adminsOnly.id}`, adminsOnly)).status).toBeLessThan(
    300,
  );
}, 120_000);

afterAll(async () => {
  for (const client of open) await client.close().catch(() => {});
  await runtime?.close();
  await dir?.remove();
});

describe('discovery', () => {
  it('answers 401 with the protected resource metadata, which names Dogu as the authorization server', async () => {
    const response = await fetch(endpoint(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(401);
    const { resourceMetadataUrl } = extractWWWAuthenticateParams(response);
    expect(resourceMetadataUrl?.href).toBe(
      `${runtime.url}/.well-known/oauth-protected-resource/mcp/projects/demo/environments/development`,
    );
    const metadata = await (await fetch(resourceMetadataUrl!)).json();
    expect(metadata).toMatchObject({ resource: endpoint().href, authorization_servers: [runtime.url] });
    const server = await (await fetch(`${runtime.url}/.well-known/oauth-authorization-server`)).json();
    expect(server).toMatchObject({
      issuer: runtime.url,
      authorization_endpoint: `${runtime.url}/oauth/authorize`,
      token_endpoint: `${runtime.url}/oauth/token`,
      registration_endpoint: `${runtime.url}/oauth/register`,
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
    });
    const unknown = await fetch(
      `${runtime.url}/.well-known/oauth-protected-resource/mcp/projects/demo/environments/nowhere`,
    );
    expect(unknown.status).toBe(404);
  });

  it('lets browser-based clients in: CORS on the metadata and a preflight of registration', async () => {
    const metadata = await fetch(`${runtime.url}/.well-known/oauth-authorization-server`);
    expect(metadata.headers.get('access-control-allow-origin')).toBe('*');
    const preflight = await fetch(`${runtime.url}/oauth/register`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:6274', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('content-type');
  });

  it('names the refused token in the challenge', async () => {
    const response = await fetch(endpoint(), {
      method: 'POST',
      headers: { authorization: 'Bearer not-a-token', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(
      /^Bearer resource_metadata="[^"]+", error="invalid_token"/,
    );
  });
});

describe('connecting as a person', () => {
  it('an administrator and a member each get their own tools, runs recorded as them via mcp with the client name', async () => {
    const asAdmin = await connectWithOAuth(adminToken, 'Admin Desk');
    expect(asAdmin.shown).toMatchObject({
      client: { name: 'Admin Desk' },
      redirectHost: '127.0.0.1:47999',
      projectId: 'demo',
      environmentId: 'development',
    });
    const asMember = await connectWithOAuth(memberToken, 'Member Desk');
    const adminTools = await toolNames(asAdmin.client);
    const memberTools = await toolNames(asMember.client);
    expect(adminTools).toContain('oauth-admins-only');
    expect(memberTools).not.toContain('oauth-admins-only');
    expect(memberTools.length).toBeLessThan(adminTools.length);

    const result = await asMember.client.callTool({
      name: 'list-orders',
      arguments: { status: 'shipped', limit: 1 },
    });
    const execution = (result.structuredContent as { execution: Record<string, unknown> }).execution;
    expect(execution).toMatchObject({ status: 'succeeded', via: 'mcp', agent: { client: 'Member Desk' } });
    const audit = await apiClient(runtime, adminToken).get('/api/v1/projects/demo/audit-log?limit=200');
    const consents = (audit.body.data as { event: string; actor: { id: string }; details: object }[]).filter(
      (entry) => entry.event === 'mcp_client.authorize',
    );
    expect(consents.map((entry) => entry.actor.id)).toContain(member.id);
    expect(consents.find((entry) => entry.actor.id === member.id)?.details).toMatchObject({
      clientName: 'Member Desk',
      redirectHost: '127.0.0.1:47999',
    });
    const recorded = await apiClient(runtime, adminToken).get(
      `/public/v1/projects/demo/environments/development/executions/${execution.id}`,
    );
    expect(recorded.body).toMatchObject({ via: 'mcp', agent: { client: 'Member Desk' } });
    expect(JSON.stringify(recorded.body)).toContain(member.id);
  });

  it('refreshes with rotation, and revoking cuts access at once', async () => {
    const { provider, client } = await connectWithOAuth(adminToken);
    const before = provider.saved!;
    expect(await auth(provider, { serverUrl: endpoint() })).toBe('AUTHORIZED');
    const after = provider.saved!;
    expect(after.access_token).not.toBe(before.access_token);
    expect(after.refresh_token).not.toBe(before.refresh_token);
    expect((await toolNames(client)).length).toBeGreaterThan(0);

    const revoked = await postForm(`${runtime.url}/oauth/revoke`, {
      token: after.refresh_token!,
      client_id: provider.client!.client_id,
    });
    expect(revoked.status).toBe(200);
    const refused = await fetch(endpoint(), {
      method: 'POST',
      headers: { authorization: `Bearer ${after.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('resource_metadata=');
    expect(((await refused.json()) as { detail: string }).detail).toMatch(/revoked/);
    const refresh = await postForm(`${runtime.url}/oauth/token`, {
      grant_type: 'refresh_token',
      refresh_token: after.refresh_token!,
      client_id: provider.client!.client_id,
    });
    expect(refresh).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('revoking the access token (no client_id: holding it is enough) ends its grant', async () => {
    const { provider, client } = await connectWithOAuth(adminToken);
    expect((await toolNames(client)).length).toBeGreaterThan(0);
    const revoked = await postForm(`${runtime.url}/oauth/revoke`, { token: provider.saved!.access_token });
    expect(revoked.status).toBe(200);
    await expect(client.listTools()).rejects.toThrow(/401|revoked/);
    const unknown = await postForm(`${runtime.url}/oauth/revoke`, { token: 'not-a-token-of-ours' });
    expect(unknown.status).toBe(200);
  });

  it('a refresh token presented twice revokes the grant (a replayed, stolen token)', async () => {
    const { provider } = await connectWithOAuth(adminToken);
    const old = provider.saved!;
    expect(await auth(provider, { serverUrl: endpoint() })).toBe('AUTHORIZED');
    const replay = await postForm(`${runtime.url}/oauth/token`, {
      grant_type: 'refresh_token',
      refresh_token: old.refresh_token!,
      client_id: provider.client!.client_id,
    });
    expect(replay).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(String(replay.body.error_description)).toMatch(/already used/);
    const current = await fetch(endpoint(), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${provider.saved!.access_token}`,
        'content-type': 'application/json',
      },
      body: '{}',
    });
    expect(current.status).toBe(401);
  });

  it('removing the person from the project cuts access', async () => {
    const outsider: Principal = {
      kind: 'user',
      id: 'usr_oauthleaver',
      email: 'leaver@example.com',
      name: 'Leaver',
    };
    await runtime.services.store.createUser({ ...outsider, createdAt: new Date().toISOString() });
    await runtime.services.store.putMembership({
      projectId: 'demo',
      principalId: outsider.id,
      role: 'member',
    });
    const token = (await runtime.services.tokens.issue(outsider, 3600)).token;
    const { provider, client } = await connectWithOAuth(token);
    expect((await toolNames(client)).length).toBeGreaterThan(0);
    const removed = await apiClient(runtime, adminToken).delete(
      `/api/v1/projects/demo/members/${outsider.id}`,
    );
    expect(removed.status).toBeLessThan(300);
    const refused = await fetch(endpoint(), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${provider.saved!.access_token}`,
        'content-type': 'application/json',
      },
      body: '{}',
    });
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(/no longer a member/);
  });

  it('the person may deny: the client gets access_denied with its state', async () => {
    const provider = new MemoryOAuthProvider(redirectUrl);
    provider.state = () => 'xyz-state';
    expect(await auth(provider, { serverUrl: endpoint() })).toBe('REDIRECT');
    const { redirectTo } = await consent(provider.authorizationUrl!, adminToken, 'deny');
    expect(Object.fromEntries(redirectTo.searchParams)).toMatchObject({
      error: 'access_denied',
      state: 'xyz-state',
      iss: runtime.url,
    });
  });
});

describe('where an MCP access token is accepted', () => {
  it('only at the endpoint it was issued for: not the rest of the API, not another environment', async () => {
    const { provider } = await connectWithOAuth(adminToken);
    const token = provider.saved!.access_token;
    const me = await fetch(`${runtime.url}/public/v1/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(401);
    expect(((await me.json()) as { detail: string }).detail).toMatch(/accepted only there/);
    const elsewhere = await fetch(endpoint('production'), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.headers.get('www-authenticate')).toContain('environments/production');
  });
});

describe('refusals of the token endpoint (RFC 6749 error JSON)', () => {
  const exchange = (form: Record<string, string>) => postForm(`${runtime.url}/oauth/token`, form);

  it('a wrong code_verifier', async () => {
    const { provider, code, clientId } = await freshCode();
    const answer = await exchange({
      grant_type: 'authorization_code',
      code,
      code_verifier: `${provider.verifier.slice(0, -1)}${provider.verifier.endsWith('A') ? 'B' : 'A'}`,
      redirect_uri: redirectUrl,
      client_id: clientId,
    });
    expect(answer).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(String(answer.body.error_description)).toMatch(/code_verifier/);
  });

  it('a code used twice, which also revokes what the first use gave', async () => {
    const { provider, code, clientId } = await freshCode();
    const form = {
      grant_type: 'authorization_code',
      code,
      code_verifier: provider.verifier,
      redirect_uri: redirectUrl,
      client_id: clientId,
      resource: endpoint().href,
    };
    const first = await exchange(form);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    const second = await exchange(form);
    expect(second).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(String(second.body.error_description)).toMatch(/already used/);
    const withFirst = await fetch(endpoint(), {
      method: 'POST',
      headers: { authorization: `Bearer ${first.body.access_token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(withFirst.status).toBe(401);
  });

  it('a redirect_uri other than the authorization request named', async () => {
    const { provider, code, clientId } = await freshCode();
    const answer = await exchange({
      grant_type: 'authorization_code',
      code,
      code_verifier: provider.verifier,
      redirect_uri: 'http://127.0.0.1:47999/elsewhere',
      client_id: clientId,
    });
    expect(answer).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(String(answer.body.error_description)).toMatch(/redirect_uri/);
  });

  it('a token for another resource than the person allowed', async () => {
    const { provider, code, clientId } = await freshCode();
    const answer = await exchange({
      grant_type: 'authorization_code',
      code,
      code_verifier: provider.verifier,
      redirect_uri: redirectUrl,
      client_id: clientId,
      resource: endpoint('production').href,
    });
    expect(answer).toMatchObject({ status: 400, body: { error: 'invalid_target' } });
  });

  it('an expired code', async () => {
    const { provider, clientId } = await freshCode();
    const code = 'expired-code-value';
    const past = Math.floor(Date.now() / 1000) - 1;
    await runtime.services.mcpOAuth.putCode({
      codeHash: hashOf(code),
      clientId,
      redirectUri: redirectUrl,
      codeChallenge: 'x'.repeat(43),
      resource: { url: endpoint().href, projectId: 'demo', environmentId: 'development' },
      principal: member,
      expiresAt: past,
    });
    const answer = await exchange({
      grant_type: 'authorization_code',
      code,
      code_verifier: provider.verifier,
      redirect_uri: redirectUrl,
      client_id: clientId,
    });
    expect(answer).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(String(answer.body.error_description)).toMatch(/expired/);
  });

  it('an unknown client, an unsupported grant type, a body that is not a form', async () => {
    expect(await exchange({ grant_type: 'authorization_code', client_id: 'nobody' })).toMatchObject({
      status: 401,
      body: { error: 'invalid_client' },
    });
    expect(await exchange({ grant_type: 'password', client_id: 'nobody' })).toMatchObject({
      status: 400,
      body: { error: 'unsupported_grant_type' },
    });
    const json = await fetch(`${runtime.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(json.status).toBe(400);
    expect(await json.json()).toMatchObject({ error: 'invalid_request' });
  });
});

describe('refusals of registration and authorization', () => {
  const register = (body: unknown) =>
    fetch(`${runtime.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: await r.json() }));

  it('redirect URIs must be https or loopback http; clients are public', async () => {
    expect(await register({ client_name: 'x', redirect_uris: ['http://example.com/cb'] })).toMatchObject({
      status: 400,
      body: { error: 'invalid_redirect_uri' },
    });
    expect(
      await register({
        client_name: 'x',
        redirect_uris: ['https://example.com/cb'],
        token_endpoint_auth_method: 'client_secret_basic',
      }),
    ).toMatchObject({ status: 400, body: { error: 'invalid_client_metadata' } });
    expect(await register({ redirect_uris: ['https://example.com/cb'] })).toMatchObject({
      status: 400,
      body: { error: 'invalid_client_metadata' },
    });
    const ok = await register({
      client_name: 'Claude',
      redirect_uris: ['https://claude.ai/api/mcp/auth_callback'],
    });
    expect(ok).toMatchObject({
      status: 201,
      body: { client_name: 'Claude', token_endpoint_auth_method: 'none' },
    });
  });

  it('an unknown client is answered here; a bad request of a known client goes to its redirect URI', async () => {
    const unknown = await fetch(
      `${runtime.url}/oauth/authorize?client_id=nobody&redirect_uri=${redirectUrl}`,
      {
        redirect: 'manual',
      },
    );
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error: 'invalid_client' });

    const provider = new MemoryOAuthProvider(redirectUrl);
    expect(await auth(provider, { serverUrl: endpoint() })).toBe('REDIRECT');
    const plain = new URL(provider.authorizationUrl!);
    plain.searchParams.set('code_challenge_method', 'plain');
    const refused = await fetch(plain, { redirect: 'manual' });
    expect(refused.status).toBe(302);
    const location = new URL(refused.headers.get('location')!);
    expect(location.origin + location.pathname).toBe(redirectUrl);
    expect(location.searchParams.get('error')).toBe('invalid_request');

    const noResource = new URL(provider.authorizationUrl!);
    noResource.searchParams.delete('resource');
    const withoutResource = await fetch(noResource, { redirect: 'manual' });
    expect(new URL(withoutResource.headers.get('location')!).searchParams.get('error')).toBe(
      'invalid_target',
    );
  });

  it('a person outside the project cannot allow a client there', async () => {
    const stranger: Principal = { kind: 'user', id: 'usr_oauthstranger', email: 's@example.com', name: 'S' };
    await runtime.services.store.createUser({ ...stranger, createdAt: new Date().toISOString() });
    const token = (await runtime.services.tokens.issue(stranger, 3600)).token;
    const provider = new MemoryOAuthProvider(redirectUrl);
    await auth(provider, { serverUrl: endpoint() });
    const started = await fetch(provider.authorizationUrl!, { redirect: 'manual' });
    const requestId = started.headers.get('location')!.split('/').pop()!;
    const shown = await apiClient(runtime, token).get(`/oauth/requests/${requestId}`);
    expect(shown.status).toBe(403);
    expect(shown.body.detail).toMatch(/not a member/);
  });
});
