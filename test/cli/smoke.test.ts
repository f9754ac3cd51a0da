/** `dogu smoke` against a real embedded runtime: every check passes and cleans up; a wrong URL fails clearly. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLoopbackUrl } from '../../cli/commands/smoke-echo.ts';
import type { LocalRuntime } from '../../local/runtime.ts';
import { runCli } from '../support/cli-bundle.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';
import { repoRoot } from '../support/process.ts';
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

it('Ctrl-C mid-way removes what the smoke made and exits 130', async () => {
  // An echo that takes the request and never answers: the smoke is then inside http-echo, with its
  // data source and action made. Runs first: its answered run ends while the other tests run.
  const held: ServerResponse[] = [];
  const hanging = createServer((_request, response) => held.push(response));
  await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
  const requested = once(hanging, 'request');
  const echoUrl = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`;
  const child = spawn(
    process.execPath,
    ['cli/bin.js', 'smoke', '--url', runtime.url, '--echo-url', echoUrl],
    {
      cwd: repoRoot,
      env: { ...process.env, HOME: home.path },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  child.stdout.on('data', (data) => {
    stdout += data;
  });
  try {
    await requested;
    child.kill('SIGINT');
    const [code] = await once(child, 'exit');
    expect(code).toBe(130);
    expect(stdout).toContain('Interrupted: removing what the smoke made…\nRemoved.');
    expect((await listed('actions')).filter((id) => id.startsWith('smoke-'))).toEqual([]);
    expect((await listed('data-sources')).filter((id) => id.startsWith('smoke-'))).toEqual([]);
  } finally {
    // Answered now, so the runtime's run ends long before the runtime closes (a run still in flight
    // at close logs a failed audit write).
    for (const response of held) response.end('{}');
    hanging.close();
  }
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

describe('dogu smoke, failing checks in the middle', () => {
  it('a URL that answers but is not Dogu fails health saying so', async () => {
    const other = createServer((_request, response) => response.end('<html>a web site</html>'));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
      const result = await dogu('smoke', '--url', url);
      expect(result.code).toBe(1);
      expect(result.stdout).toContain('GET /healthz answered "<html>a web site</html>": is this Dogu?');
      expect(result.stdout).toContain('- openapi: skipped (Dogu is not healthy)');
    } finally {
      other.close();
    }
  });

  it('an echo that cannot be reached fails http-echo with the reason; the rest still runs and is removed', async () => {
    const result = await dogu('smoke', '--url', runtime.url, '--echo-url', 'http://127.0.0.1:9', '--json');
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as {
      checks: { name: string; status: string; detail: string }[];
    };
    expect(Object.fromEntries(report.checks.map((check) => [check.name, check.status]))).toEqual({
      health: 'passed',
      openapi: 'passed',
      'sign-in': 'passed',
      'http-echo': 'failed',
      'async-job': 'passed',
      reservation: 'passed',
      cleanup: 'passed',
    });
    expect(report.checks.find((check) => check.name === 'http-echo')!.detail).toMatch(
      /ECONNREFUSED|refused|reach/i,
    );
    expect(report.checks.find((check) => check.name === 'cleanup')!.detail).toMatch(
      /^removed action smoke-.*-job, .*, data source smoke-.*-echo$/,
    );
  });

  it('a login stored for another URL fails sign-in naming the login to run, and skips what needs it', async () => {
    const other = runtime.url.replace('127.0.0.1', 'localhost');
    const result = await dogu('smoke', '--url', other);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`✗ sign-in`);
    expect(result.stdout).toContain(`The stored login is for ${runtime.url}, not ${other}.`);
    expect(result.stdout).toContain('- async-job: skipped (not signed in)');
    expect(result.stdout).not.toContain('cleanup');
    expect(result.stdout).toContain(`Smoke check of ${other}: 1 failed.`);
  });
});

it('serves its own echo only to a runtime on loopback: a deployment gets --echo-url or a skipped check', () => {
  expect(['http://127.0.0.1:8787', 'http://localhost:8787', 'http://[::1]:8787'].map(isLoopbackUrl)).toEqual([
    true,
    true,
    true,
  ]);
  expect(['https://dogu.example.com', 'http://10.0.0.5:8787'].map(isLoopbackUrl)).toEqual([false, false]);
});

async function listed(kind: string): Promise<string[]> {
  const response = await fetch(`${runtime.url}/api/v1/projects/demo/${kind}`, {
    headers: { authorization: `Bearer ${await token()}` },
  });
  return ((await response.json()) as { data: { id: string }[] }).data.map((item) => item.id);
}

async function token(): Promise<string> {
  const response = await fetch(`${runtime.url}/local/v1/login`, { method: 'POST' });
  return ((await response.json()) as { token: string }).token;
}
