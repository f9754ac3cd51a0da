/** `npm start`'s entry point as a real process: banner, health, clean shutdown on signals. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSqlite } from '../../local/sqlite/local-database.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';
import { processStartMs, repoRoot, waitForOutput } from '../support/process.ts';
import { executionsPath, tempDir } from '../support/runtime.ts';

let database: TestDatabase;
let dataDir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = await tempDir('main');
});
afterAll(async () => {
  await dataDir?.remove();
  await database?.drop();
});

function startMain(extraEnv: Record<string, string> = {}) {
  return spawn(process.execPath, ['--import', 'tsx', 'local/main.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      DOGU_DATA_DIR: dataDir.path,
      PORT: '0',
      DOGU_DEMO_DATABASE_URL: database.url,
      POWERTOOLS_LOG_LEVEL: 'WARN',
      DOGU_DEV_IDP_PORT: '0',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

// Each test starts one or two processes (processStartMs each, at worst).
describe('local/main.ts', { timeout: 3 * processStartMs }, () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`prints the URL and demo ids, answers /healthz, and exits 0 on ${signal}`, async () => {
      const child = startMain();
      try {
        const [banner, url] = await waitForOutput(
          child,
          /Dogu is running at (http:\/\/127\.0\.0\.1:\d+)[\s\S]+Run the demo:[\s\S]+executions/,
          processStartMs,
        );
        expect(banner).toContain('Demo project:      demo');
        // Not the CLI's default port: the login command the banner prints names this runtime.
        expect(banner).toContain(`Get a token:       DOGU_URL=${url} npx dogu login`);
        expect(banner).toContain(
          `${url}/public/v1/projects/demo/environments/development/actions/list-orders/executions`,
        );
        const health = await fetch(`${url}/healthz`);
        expect(health.status).toBe(200);
        child.kill(signal);
        const [code] = await once(child, 'exit');
        expect(code).toBe(0);
      } finally {
        if (child.exitCode === null) {
          child.kill('SIGKILL');
          await once(child, 'exit');
        }
      }
    });
  }

  it('refuses a second process on the same data directory with a clear message', async () => {
    const first = startMain();
    try {
      await waitForOutput(first, /Dogu is running at/, processStartMs);
      const second = startMain();
      let stderr = '';
      second.stderr.on('data', (d) => {
        stderr += d;
      });
      const [code] = await once(second, 'exit');
      expect(code).toBe(1);
      expect(stderr).toContain(
        `The data directory ${dataDir.path} is in use by another Dogu process (pid ${first.pid})`,
      );
      expect(stderr).not.toMatch(/\bat .+:\d+:\d+/); // no stack trace
    } finally {
      first.kill('SIGTERM');
      await once(first, 'exit');
    }
  });

  it('after kill -9, takes over the lock and has lost no answered execution', async () => {
    // Execution records are committed to the SQLite file before each answer (decision 0250).
    const crashed = startMain();
    const [, crashedUrl] = await waitForOutput(crashed, /Dogu is running at (http:\/\/\S+)/, processStartMs);
    const login = await fetch(`${crashedUrl}/local/v1/login`, { method: 'POST' });
    const { token } = (await login.json()) as { token: string };
    const answered = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const response = await fetch(`${crashedUrl}${executionsPath('demo', 'development', 'list-orders')}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ arguments: { status: 'paid', limit: 1 + (i % 5) } }),
        });
        expect(response.status).toBe(200);
        return ((await response.json()) as { id: string; arguments: unknown }).id;
      }),
    );
    crashed.kill('SIGKILL'); // no chance to flush anything
    await once(crashed, 'exit');

    const next = startMain();
    try {
      const [, url] = await waitForOutput(next, /Dogu is running at (http:\/\/\S+)/, processStartMs);
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      for (const id of answered) {
        const read = await fetch(`${url}/public/v1/projects/demo/environments/development/executions/${id}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        expect(read.status, id).toBe(200);
      }
      // The audit entries of those runs survived too: one per answered execution.
      const audit = await fetch(`${url}/api/v1/projects/demo/audit-log?event=execution.run&limit=100`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const { data } = (await audit.json()) as { data: { details: { executionId: string } }[] };
      expect(data.map((e) => e.details.executionId).sort()).toEqual([...answered].sort());
    } finally {
      next.kill('SIGTERM');
      await once(next, 'exit');
    }
  });

  it('after kill -9 during a run, the run is recorded and ends as interrupted at the next start', async () => {
    // The record before the run is a commit to the SQLite file, read below from outside the process.
    const crashed = startMain();
    const [, crashedUrl] = await waitForOutput(crashed, /Dogu is running at (http:\/\/\S+)/, processStartMs);
    const login = await fetch(`${crashedUrl}/local/v1/login`, { method: 'POST' });
    const { token } = (await login.json()) as { token: string };
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const saved = await fetch(`${crashedUrl}/api/v1/projects/demo/actions/sleepy`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({
        id: 'sleepy',
        name: 'Sleepy',
        kind: 'sql',
        dataSourceId: 'demo-postgres',
        parameters: [{ name: 'label', kind: 'text', label: 'Label' }],
        statements: [{ title: 'Sleep', sql: 'SELECT pg_sleep(30), {{ label }} AS label' }],
      }),
    });
    expect(saved.status).toBe(201);
    const pending = fetch(`${crashedUrl}${executionsPath('demo', 'development', 'sleepy')}`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ arguments: { label: 'crash-me' } }),
    }).catch(() => undefined); // the process dies before it answers
    // The `running` record is in the SQLite file before the action runs (decision 0250); read it from
    // this process, as another reader of the same file.
    const { DatabaseSync } = loadSqlite();
    let running: { id: string; status: string; arguments: unknown } | undefined;
    for (let i = 0; i < 100 && !running; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      let reader: InstanceType<typeof DatabaseSync> | undefined;
      try {
        reader = new DatabaseSync(join(dataDir.path, 'local.sqlite'));
        const rows = reader.prepare("SELECT record FROM executions WHERE status = 'running'").all();
        running = rows
          .map((row) => JSON.parse(String(row.record)))
          .find((r) => r.arguments?.label === 'crash-me');
      } catch {
        // Not created yet.
      } finally {
        reader?.close();
      }
    }
    expect(running).toMatchObject({ status: 'running', arguments: { label: 'crash-me' } });
    crashed.kill('SIGKILL'); // mid-run
    await once(crashed, 'exit');
    await pending;

    const next = startMain();
    try {
      const [, url] = await waitForOutput(next, /Dogu is running at (http:\/\/\S+)/, processStartMs);
      const read = await fetch(
        `${url}/public/v1/projects/demo/environments/development/executions/${running!.id}`,
        { headers: { authorization: `Bearer ${token}` } },
      );
      expect(read.status).toBe(200);
      const execution = (await read.json()) as Record<string, unknown>;
      expect(execution).toMatchObject({
        status: 'failed',
        arguments: { label: 'crash-me' },
        error: { code: 'interrupted', message: expect.stringContaining('Interrupted') },
      });
      expect(execution.finishedAt).toEqual(expect.any(String));
    } finally {
      next.kill('SIGTERM');
      await once(next, 'exit');
    }
  });
});
