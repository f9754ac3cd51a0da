/** The `dogu` command as a subprocess against a running embedded runtime. */
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';
import { run } from '../support/process.ts';
import { startTestRuntime, tempDir } from '../support/runtime.ts';

let runtime: LocalRuntime;
let database: TestDatabase;
let dataDir: Awaited<ReturnType<typeof tempDir>>;
let home: Awaited<ReturnType<typeof tempDir>>;
const dogu = (...args: string[]) =>
  run(process.execPath, ['cli/bin.js', ...args], { HOME: home.path, DOGU_URL: runtime.url });
const credentialsFile = () => join(home.path, '.dogu', 'credentials.json');

beforeAll(async () => {
  dataDir = await tempDir('cli-data');
  home = await tempDir('cli-home');
  database = await createTestDatabase();
  runtime = await startTestRuntime(dataDir.path, { demoDatabaseUrl: database.url });
});
afterAll(async () => {
  await runtime?.close();
  await Promise.all([dataDir?.remove(), home?.remove(), database?.drop()]);
});

describe('dogu CLI', () => {
  it('print-access-token before login says how to log in', async () => {
    const result = await dogu('print-access-token');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Not logged in. Run `npx dogu login` first.');
    expect(result.stdout).toBe('');
  });

  it('login stores token, email and expiresAt in a 0600 file; print-access-token prints a valid token', async () => {
    const login = await dogu('login');
    expect(login.code).toBe(0);
    expect(login.stderr).toContain('as admin@dogu.local');

    const info = await stat(credentialsFile());
    expect(info.mode & 0o777).toBe(0o600);
    const credentials = JSON.parse(await readFile(credentialsFile(), 'utf8'));
    expect(credentials).toMatchObject({ email: 'admin@dogu.local', url: runtime.url, kind: 'local' });
    expect(credentials.expiresAt).toBeGreaterThan(Date.now() / 1000 + 3600);
    expect(Number.isInteger(credentials.expiresAt)).toBe(true);

    const printed = await dogu('print-access-token');
    expect(printed.code).toBe(0);
    expect(printed.stdout.trim()).toBe(credentials.token);
    const principal = await runtime.services.tokens.verify(printed.stdout.trim());
    expect(principal.email).toBe('admin@dogu.local');
  });

  it('print-access-token renews an expired token first', async () => {
    const stale = JSON.parse(await readFile(credentialsFile(), 'utf8'));
    await writeFile(credentialsFile(), JSON.stringify({ ...stale, token: 'expired', expiresAt: 1_000 }), {
      mode: 0o600,
    });
    const printed = await dogu('print-access-token');
    expect(printed.code).toBe(0);
    const token = printed.stdout.trim();
    expect(token).not.toBe('expired');
    await expect(runtime.services.tokens.verify(token)).resolves.toMatchObject({ email: 'admin@dogu.local' });
    expect(JSON.parse(await readFile(credentialsFile(), 'utf8')).token).toBe(token);
  });

  it('execute runs an action with typed --arg values', async () => {
    const result = await dogu('execute', 'list-orders', '--arg', 'status=cancelled', '--arg', 'limit=3');
    expect(result.code).toBe(0);
    const body = JSON.parse(result.stdout);
    expect(body.status).toBe('succeeded');
    expect(body.results[0].rows).toHaveLength(3);
    expect(body.arguments).toEqual({ status: 'cancelled', limit: 3 });
  });

  it('execute --preview prints what a write would do and commits nothing', async () => {
    const fetchStatus = async () => {
      const client = new pg.Client(database.connection);
      await client.connect();
      try {
        return (await client.query('SELECT status FROM orders WHERE id = 2')).rows[0].status as string;
      } finally {
        await client.end();
      }
    };
    expect(await fetchStatus()).toBe('paid');
    const result = await dogu('execute', 'mark-shipped', '--arg', 'order_id=2', '--preview');
    expect(result.code, result.stderr).toBe(0);
    const body = JSON.parse(result.stdout);
    expect(body).toMatchObject({ preview: true, status: 'succeeded' });
    expect(body.results[0].preview).toMatchObject({
      rowsAffected: 1,
      before: { rows: [{ id: 2, status: 'paid' }] },
      after: { rows: [{ id: 2, status: 'shipped' }] },
    });
    expect(await fetchStatus()).toBe('paid');
  });

  it('execute prints the API problem and each offending argument', async () => {
    const result = await dogu('execute', 'list-orders', '--arg', 'limit=lots');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('dogu: 422');
    expect(result.stderr).toContain("#/arguments/status: 'status' is required.");
    expect(result.stderr).toContain("#/arguments/limit: 'limit' must be a finite number.");
  });

  it('login refuses a Dogu that is not on this machine', async () => {
    const result = await dogu('login', '--url', 'https://dogu.example.com');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('not on this machine');
  });

  it('says when Dogu is not running', async () => {
    const result = await dogu('login', '--url', 'http://127.0.0.1:1');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Could not reach http://127.0.0.1:1');
    // A runtime on another port is found only when named: the message says how.
    expect(result.stderr).toContain('--url URL or DOGU_URL=URL');
  });

  it('unknown commands print usage and exit 2', async () => {
    const result = await dogu('frobnicate');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Usage: dogu <command>');
  });
});
