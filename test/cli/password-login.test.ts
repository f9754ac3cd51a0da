/** `dogu login --email` as a subprocess: password sign-in against the embedded runtime's accounts. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoPassword } from '../../local/accounts-startup.ts';
import type { LocalRuntime } from '../../local/runtime.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';
import { run } from '../support/process.ts';
import { startTestRuntime, tempDir } from '../support/runtime.ts';

let runtime: LocalRuntime;
let database: TestDatabase;
let dataDir: Awaited<ReturnType<typeof tempDir>>;
let home: Awaited<ReturnType<typeof tempDir>>;
const dogu = (env: Record<string, string>, ...args: string[]) =>
  run(process.execPath, ['cli/bin.js', ...args], { HOME: home.path, DOGU_URL: runtime.url, ...env });

beforeAll(async () => {
  dataDir = await tempDir('cli-password-data');
  home = await tempDir('cli-password-home');
  database = await createTestDatabase();
  runtime = await startTestRuntime(dataDir.path, { demoDatabaseUrl: database.url });
});
afterAll(async () => {
  await runtime?.close();
  await Promise.all([dataDir?.remove(), home?.remove(), database?.drop()]);
});

describe('dogu login --email', () => {
  it('signs in as the reviewer with DOGU_PASSWORD and stores a password login', async () => {
    const login = await dogu({ DOGU_PASSWORD: demoPassword }, 'login', '--email', 'reviewer@dogu.local');
    expect(login.code).toBe(0);
    expect(login.stderr).toContain('as reviewer@dogu.local');
    const credentials = JSON.parse(await readFile(join(home.path, '.dogu', 'credentials.json'), 'utf8'));
    expect(credentials).toMatchObject({ kind: 'password', email: 'reviewer@dogu.local', url: runtime.url });
    const printed = await dogu({}, 'print-access-token');
    expect((await runtime.services.tokens.verify(printed.stdout.trim())).email).toBe('reviewer@dogu.local');
    const ran = await dogu({}, 'execute', 'list-orders', '--arg', 'status=shipped', '--arg', 'limit=1');
    expect(ran.code).toBe(0);
    expect(JSON.parse(ran.stdout).executedBy.email).toBe('reviewer@dogu.local');
  });

  it("a wrong password fails with the server's answer; without a terminal and no DOGU_PASSWORD it says what to set", async () => {
    const wrong = await dogu(
      { DOGU_PASSWORD: 'not the password' },
      'login',
      '--email',
      'reviewer@dogu.local',
    );
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('The e-mail address or the password is wrong.');
    const noTty = await dogu({}, 'login', '--email', 'reviewer@dogu.local');
    expect(noTty.code).toBe(1);
    expect(noTty.stderr).toContain('set DOGU_PASSWORD');
  });
});
