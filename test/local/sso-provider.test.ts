/**
 * An administrator's single sign-on provider, with the development IdP standing in for an
 * external OpenID Connect provider: a team runtime (DOGU_ACCOUNTS on, so no development IdP of
 * its own), discovery checked on save, just-in-time membership by e-mail domain, and each
 * failing step named (discovery, token, domain not allowed).
 */

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateKeyPair, importJWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevIdp, startDevIdp } from '../../local/dev-idp.ts';
import { type LocalRuntime, startLocalRuntime } from '../../local/runtime.ts';
import { apiClient } from '../support/api.ts';
import { Browser } from '../support/browser.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';
import { repoRoot, waitForOutput } from '../support/process.ts';
import { loginToken, tempDir } from '../support/runtime.ts';

let runtime: LocalRuntime;
let idp: DevIdp;
let database: TestDatabase;
let dirs: Awaited<ReturnType<typeof tempDir>>[] = [];
let admin: ReturnType<typeof apiClient>;

beforeAll(async () => {
  dirs = [await tempDir('sso-team'), await tempDir('sso-idp')];
  database = await createTestDatabase();
  // AWS has no loopback administrator: named addresses administer accounts.
  process.env.DOGU_ACCOUNT_ADMINS = ' Aiko@Example.com ';
  runtime = await startLocalRuntime({
    dataDir: dirs[0]!.path,
    host: '127.0.0.1',
    port: 0,
    demoDbPort: 0,
    demoDatabaseUrl: database.url,
    accounts: true,
  });
  idp = await startDevIdp({
    dataDir: dirs[1]!.path,
    host: '127.0.0.1',
    port: 0,
    consoleRedirectUris: [`${runtime.url}/auth/callback`],
    accounts: [
      { email: 'aiko@example.com', name: 'Aiko' },
      { email: 'eve@elsewhere.test', name: 'Eve' },
    ],
  });
  admin = apiClient(runtime, await loginToken(runtime));
});
afterAll(async () => {
  delete process.env.DOGU_ACCOUNT_ADMINS;
  await idp?.close();
  await runtime?.close();
  for (const dir of dirs) await dir.remove();
  await database?.drop();
});

async function ssoSignIn(email: string) {
  const browser = new Browser();
  const start = await browser.request(`${runtime.url}/auth/login`);
  expect(start.response.status).toBe(302);
  const callback = await browser.signIn(start.location!, email, new URL(idp.config.issuer).origin);
  const done = await browser.request(callback);
  return { browser, done };
}

describe('team accounts without the development IdP', () => {
  it('no development IdP runs, no demo password works, and the administrator gets an invitation to set one', async () => {
    expect(runtime.devIdpIssuer).toBeUndefined();
    expect(runtime.accounts.adminInvitationPath).toMatch(/^\/invitations\/[\w-]+$/);
    const signIn = await fetch(`${runtime.url}/public/v1/login/password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@dogu.local', password: 'try-dogu-demo-2026' }),
    });
    expect(signIn.status).toBe(401);
    expect((await fetch(`${runtime.url}/auth/login`, { redirect: 'manual' })).status).toBe(404);
  });
});

describe('an external OpenID Connect provider', () => {
  it('a provider whose discovery fails is refused, naming the step', async () => {
    const refused = await admin.put('/api/v1/sso-provider', {
      issuer: 'http://127.0.0.1:9/nothing',
      clientId: 'dogu-console',
      clientSecret: 'x',
      allowedDomains: ['example.com'],
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].pointer).toBe('#/issuer');
    expect(refused.body.errors[0].detail).toContain('discovery step');
    expect((await admin.put('/api/v1/sso-provider', { issuer: 'ftp://x', clientId: 'a' })).status).toBe(422);
    expect((await admin.get('/api/v1/sso-provider')).status).toBe(404);
  });

  it('is saved with its secret encrypted and never answered', async () => {
    const saved = await admin.put('/api/v1/sso-provider', {
      issuer: idp.config.issuer,
      clientId: idp.config.consoleClientId,
      clientSecret: idp.config.consoleClientSecret,
      allowedDomains: ['Example.com'],
      defaultMemberships: [{ projectId: 'demo', role: 'member' }],
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ allowedDomains: ['example.com'], hasClientSecret: true });
    expect(JSON.stringify(saved.body)).not.toContain(idp.config.consoleClientSecret!);
    const stored = await runtime.services.accounts.store.getSsoProvider();
    expect(JSON.stringify(stored)).not.toContain(idp.config.consoleClientSecret!);
  });

  it('a user of an allowed domain signs in and joins the configured project (just in time)', async () => {
    const { browser, done } = await ssoSignIn('aiko@example.com');
    expect(done.response.status).toBe(302);
    const session = await browser.request(`${runtime.url}/auth/session`);
    expect(JSON.parse(session.text).user.email).toBe('aiko@example.com');
    const members = await admin.get('/api/v1/projects/demo/members');
    const aiko = members.body.data.find((m: { email?: string }) => m.email === 'aiko@example.com');
    expect(aiko).toMatchObject({ role: 'member' });
    const users = await admin.get('/api/v1/users');
    expect(users.body.data.find((u: { email: string }) => u.email === 'aiko@example.com')).toMatchObject({
      status: 'single_sign_on',
    });
    // Named in DOGU_ACCOUNT_ADMINS: an account administrator without the flag on the record.
    const asAiko = await browser.request(`${runtime.url}/api/v1/users`);
    expect(asAiko.response.status).toBe(200);
  });

  it('another domain is refused, naming the step; an invited user of that domain comes in', async () => {
    const { done } = await ssoSignIn('eve@elsewhere.test');
    expect(done.response.status).toBe(403);
    expect(JSON.parse(done.text).detail).toContain('domain not allowed step');
    await admin.post('/api/v1/users', { email: 'eve@elsewhere.test' });
    const again = await ssoSignIn('eve@elsewhere.test');
    expect(again.done.response.status).toBe(302);
  });

  it('a disabled user is refused at sign-in', async () => {
    const aiko = (await admin.get('/api/v1/users')).body.data.find(
      (u: { email: string }) => u.email === 'aiko@example.com',
    );
    await admin.request('PATCH', `/api/v1/users/${aiko.userId}`, { disabled: true });
    const { done } = await ssoSignIn('aiko@example.com');
    expect(done.response.status).toBe(403);
    expect(JSON.parse(done.text).detail).toContain('disabled');
  });

  it('dogu login --sso signs in at the provider through its CLI client', async () => {
    await admin.put('/api/v1/sso-provider', {
      issuer: idp.config.issuer,
      clientId: idp.config.consoleClientId,
      cliClientId: idp.config.cliClientId,
      allowedDomains: ['example.com'],
    });
    const config = await (await fetch(`${runtime.url}/public/v1/login/config`)).json();
    expect(config).toMatchObject({ issuer: idp.config.issuer, clientId: 'dogu-cli' });
    const child = spawn(process.execPath, ['cli/bin.js', 'login', '--sso'], {
      cwd: repoRoot,
      env: { ...process.env, HOME: dirs[1]!.path, DOGU_URL: runtime.url },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (data) => {
      stderr += data;
    });
    const exited = once(child, 'exit');
    const [authUrl] = await waitForOutput(child, /http:\/\/127\.0\.0\.1:\d+\/auth\?\S+/, 20_000);
    const callback = await new Browser().signIn(
      authUrl,
      'eve@elsewhere.test',
      new URL(idp.config.issuer).origin,
    );
    await new Browser().request(callback);
    const [code] = (await exited) as [number];
    expect(stderr).toContain('as eve@elsewhere.test');
    expect(code).toBe(0);
  });

  it('an ID token the provider did not sign fails at the id token validation step', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    const forged = await new SignJWT({ email: 'aiko@example.com', email_verified: true })
      .setProtectedHeader({ alg: 'RS256', kid: 'forged' })
      .setIssuer(idp.config.issuer)
      .setAudience(idp.config.cliClientId)
      .setSubject('aiko@example.com')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey);
    const refused = await fetch(`${runtime.url}/public/v1/login/oidc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ idToken: forged }),
    });
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { detail: string }).detail).toContain('id token validation step');
  });

  /** An ID token the development IdP could have issued (its own key), with any e-mail claim. */
  async function idpToken(email: string) {
    const keys = JSON.parse(await readFile(join(dirs[1]!.path, 'dev-idp-keys.json'), 'utf8'));
    return new SignJWT({ email, email_verified: true })
      .setProtectedHeader({ alg: 'RS256', kid: keys.signing.kid })
      .setIssuer(idp.config.issuer)
      .setAudience(idp.config.cliClientId)
      .setSubject(email)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(await importJWK(keys.signing, 'RS256'));
  }
  const oidcLogin = (idToken: string) =>
    fetch(`${runtime.url}/public/v1/login/oidc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ idToken }),
    });

  it('refuses an e-mail claim that is not one address as an account (issue 24, item 11)', async () => {
    for (const email of [
      'x@evil.com@example.com',
      'ken@example.com\n',
      'ken@example.com\r\nbcc: x@example.com',
    ]) {
      const refused = await oidcLogin(await idpToken(email));
      expect(refused.status).toBe(401);
      expect(((await refused.json()) as { detail: string }).detail).toContain(
        'the e-mail claim is not one valid e-mail address',
      );
    }
    // The same token with one address comes in: the refusals above are the address's doing.
    expect((await oidcLogin(await idpToken('ken@example.com'))).status).toBe(200);
    const users = JSON.stringify((await admin.get('/api/v1/users')).body);
    expect(users).not.toContain('evil.com');
    expect(users).not.toContain('bcc');
  });

  it('refuses default memberships of unknown projects, and never joins a project made after them', async () => {
    const provider = {
      issuer: idp.config.issuer,
      clientId: idp.config.consoleClientId,
      cliClientId: idp.config.cliClientId,
      allowedDomains: ['example.com'],
    };
    const refused = await admin.put('/api/v1/sso-provider', {
      ...provider,
      defaultMemberships: [
        { projectId: 'demo', role: 'member' },
        { projectId: 'not-yet', role: 'admin' },
      ],
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([
      { pointer: '#/defaultMemberships/1/projectId', detail: "no project 'not-yet' exists" },
    ]);
    expect((await runtime.services.accounts.store.getSsoProvider())?.defaultMemberships).toEqual([]);

    // A setting saved before the project 'later' was made (as if an id were deleted and made again).
    await runtime.services.store.createProject({
      id: 'later',
      name: 'Later',
      createdAt: new Date().toISOString(),
    });
    const saved = await admin.put('/api/v1/sso-provider', {
      ...provider,
      defaultMemberships: [
        { projectId: 'demo', role: 'member' },
        { projectId: 'later', role: 'admin' },
      ],
    });
    expect(saved.status).toBe(200);
    const stored = (await runtime.services.accounts.store.getSsoProvider())!;
    const demo = (await runtime.services.store.getProject('demo'))!;
    await runtime.services.accounts.store.putSsoProvider({ ...stored, updatedAt: demo.createdAt });
    expect((await oidcLogin(await idpToken('mia@example.com'))).status).toBe(200);
    const mia = (await runtime.services.store.getUserByEmail('mia@example.com'))!;
    const memberships = async (projectId: string) =>
      (await runtime.services.store.listMemberships(projectId)).filter((m) => m.principalId === mia.id);
    expect(await memberships('demo')).toMatchObject([{ role: 'member' }]);
    expect(await memberships('later')).toEqual([]);
  });

  it('a wrong client secret fails at the token step', async () => {
    await admin.put('/api/v1/sso-provider', {
      issuer: idp.config.issuer,
      clientId: idp.config.consoleClientId,
      clientSecret: 'not-the-secret',
      allowedDomains: ['example.com'],
    });
    const { done } = await ssoSignIn('eve@elsewhere.test');
    expect(done.response.status).toBe(401);
    expect(JSON.parse(done.text).detail).toContain('token step');
  });
});
