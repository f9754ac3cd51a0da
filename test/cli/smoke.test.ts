/** `dogu smoke` against a real embedded runtime: every check passes and cleans up; a wrong URL fails clearly. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import { runCli } from '../support/cli-bundle.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';
import { startTestRuntime, tempDir } from '../support/runtime.ts';

let runtime: LocalRuntime;
let database: TestDatabase;
let dataDir: Awaited<ReturnType<typeof tempDir>>;
let home: Awaited<ReturnType<typeof tempDir>>;
const dogu = (...args: string[]) => runCli(args, { HOME: home.path, DOGU_URL: runtime.url });

beforeAll(async () => {
  dataDir = await tempDir('cli-smoke-data');
  home = await tempDir('cli-smoke-home');
  database = await createTestDatabase();
  runtime = await startTestRuntime(dataDir.path, { demoDatabaseUrl: database.url });
  expect((await dogu('login')).code).toBe(0);
});
afterAll(async () => {
  await runtime?.close();
  await Promise.all([dataDir?.remove(), home?.remove(), database?.drop()]);
});

describe('dogu smoke', () => {
  it('passes every check against a fresh runtime, one line each, and removes what it made', async () => {
    const result = await dogu('smoke', '--url', runtime.url);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines.map((line) => line.split(' (')[0])).toEqual([
      '✓ health',
      '✓ openapi',
      '✓ sign-in',
      '✓ http-echo',
      '✓ async-job',
      '✓ reservation',
      '✓ cleanup',
      `Smoke check of ${runtime.url} passed.`,
    ]);
    expect(result.stdout).toMatch(/✓ health \(\d+ ms\)/);
    expect(result.stdout).toContain('token accepted for admin@');
    const listed = async (kind: string) =>
      (
        (await (
          await fetch(`${runtime.url}/api/v1/projects/demo/${kind}`, {
            headers: { authorization: `Bearer ${await token()}` },
          })
        ).json()) as { data: { id: string }[] }
      ).data.map((item) => item.id);
    expect((await listed('actions')).filter((id) => id.startsWith('smoke-'))).toEqual([]);
    expect((await listed('data-sources')).filter((id) => id.startsWith('smoke-'))).toEqual([]);
    const reservations = (await (
      await fetch(`${runtime.url}/api/v1/projects/demo/environments/development/reservations`, {
        headers: { authorization: `Bearer ${await token()}` },
      })
    ).json()) as { data: { status: string }[] };
    expect(reservations.data.map((item) => item.status)).toEqual(['cancelled']);
  });

  it('--json: one document; a wrong URL fails health with a clear message and exit code 1', async () => {
    const result = await dogu('smoke', '--url', 'http://127.0.0.1:9', '--json');
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as {
      ok: boolean;
      checks: { name: string; status: string; detail: string }[];
    };
    expect(report.ok).toBe(false);
    expect(report.checks[0]).toMatchObject({ name: 'health', status: 'failed' });
    expect(report.checks[0]!.detail).toContain('Could not reach http://127.0.0.1:9');
    expect(report.checks.slice(1).map((check) => check.status)).toEqual([
      'skipped',
      'skipped',
      'skipped',
      'skipped',
      'skipped',
    ]);
  });
});

async function token(): Promise<string> {
  const response = await fetch(`${runtime.url}/local/v1/login`, { method: 'POST' });
  return ((await response.json()) as { token: string }).token;
}
