/** `dogu login --sso` / `--device` as subprocesses against the embedded runtime's development IdP. */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import { Browser } from '../support/browser.ts';
import { repoRoot, run, waitForOutput } from '../support/process.ts';
import { startTestRuntime, tempDir } from '../support/runtime.ts';

let runtime: LocalRuntime;
let idpOrigin: string;
let dataDir: Awaited<ReturnType<typeof tempDir>>;
let home: Awaited<ReturnType<typeof tempDir>>;
const env = () => ({ HOME: home.path, DOGU_URL: runtime.url });
const dogu = (...args: string[]) => run(process.execPath, ['cli/bin.js', ...args], env());
const credentialsFile = () => join(home.path, '.dogu', 'credentials.json');
const readStored = async () => JSON.parse(await readFile(credentialsFile(), 'utf8'));

function start(...args: string[]): ChildProcess {
  return spawn(process.execPath, ['cli/bin.js', ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env() },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

async function finish(child: ChildProcess) {
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr += d;
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stderr };
}

beforeAll(async () => {
  dataDir = await tempDir('sso-data');
  home = await tempDir('sso-home');
  runtime = await startTestRuntime(dataDir.path);
  const config = (await (await fetch(`${runtime.url}/public/v1/login/config`)).json()) as { issuer: string };
  idpOrigin = new URL(config.issuer).origin;
});
afterAll(async () => {
  await runtime?.close();
  await Promise.all([dataDir?.remove(), home?.remove()]);
});

describe('dogu login --sso (authorization code + PKCE, loopback redirect)', () => {
  it('logs in at the IdP and stores token, email, expiresAt and the refresh token in a 0600 file', async () => {
    const child = start('login', '--sso');
    const exited = finish(child);
    const [authUrl] = await waitForOutput(child, /http:\/\/127\.0\.0\.1:\d+\/auth\?\S+/, 20_000);
    const url = new URL(authUrl);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('client_id')).toBe('dogu-cli');
    expect(url.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);

    const browser = new Browser();
    const callback = await browser.signIn(authUrl, 'admin@dogu.local', idpOrigin);
    expect(callback).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback\?code=/);
    const page = await browser.request(callback);
    expect(page.text).toContain('Logged in to Dogu');

    const { code, stderr } = await exited;
    expect(stderr).toContain('as admin@dogu.local');
    expect(code).toBe(0);
    expect((await stat(credentialsFile())).mode & 0o777).toBe(0o600);
    const stored = await readStored();
    expect(stored).toMatchObject({
      email: 'admin@dogu.local',
      kind: 'sso',
      url: runtime.url,
      clientId: 'dogu-cli',
    });
    expect(stored.expiresAt).toBeGreaterThan(Date.now() / 1000 + 3600);
    expect(typeof stored.refreshToken).toBe('string');
    await expect(runtime.services.tokens.verify(stored.token)).resolves.toMatchObject({
      email: 'admin@dogu.local',
    });

    const printed = await dogu('print-access-token');
    expect(printed.code).toBe(0);
    expect(printed.stdout.trim()).toBe(stored.token);
  });

  it('print-access-token renews an expired token through the IdP refresh token', async () => {
    const stored = await readStored();
    await writeFile(credentialsFile(), JSON.stringify({ ...stored, token: 'expired', expiresAt: 1_000 }), {
      mode: 0o600,
    });
    const printed = await dogu('print-access-token');
    expect(printed.stderr).toBe('');
    expect(printed.code).toBe(0);
    const token = printed.stdout.trim();
    await expect(runtime.services.tokens.verify(token)).resolves.toMatchObject({ email: 'admin@dogu.local' });
    const renewed = await readStored();
    expect(renewed.token).toBe(token);
    expect(renewed.refreshToken).not.toBe(stored.refreshToken); // rotated by the IdP
    expect(renewed.lastUsedAt).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000) - 60);
  });

  it('refuses after 30 days without use and says to log in again', async () => {
    const stored = await readStored();
    const lastUsedAt = Math.floor(Date.now() / 1000) - 30 * 24 * 3600;
    await writeFile(credentialsFile(), JSON.stringify({ ...stored, expiresAt: 1_000, lastUsedAt }), {
      mode: 0o600,
    });
    const printed = await dogu('print-access-token');
    expect(printed.code).toBe(1);
    expect(printed.stdout).toBe('');
    expect(printed.stderr).toContain('30 days or more ago. Log in again: `npx dogu login --sso`');
  });

  it('the server refuses an ID token that is not from the IdP', async () => {
    const response = await fetch(`${runtime.url}/public/v1/login/oidc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        idToken: await runtime.services.tokens
          .issue({ kind: 'user', id: 'usr_x', email: 'mallory@example.com', name: 'M' }, 60)
          .then((t) => t.token),
      }),
    });
    expect(response.status).toBe(401);
  });
});

describe('dogu login --device', () => {
  it('prints the verification URL and code, then completes when the user confirms at the IdP', async () => {
    const child = start('login', '--device');
    const exited = finish(child);
    const [, complete] = await waitForOutput(child, /\(or open (\S+)\)/, 20_000);
    const end = await new Browser().signIn(complete!, 'admin@dogu.local', idpOrigin);
    expect(end).toBe('');
    const { code, stderr } = await exited;
    expect(stderr).toContain('as admin@dogu.local');
    expect(code).toBe(0);
    expect(await readStored()).toMatchObject({ kind: 'sso', email: 'admin@dogu.local' });
  });
});
