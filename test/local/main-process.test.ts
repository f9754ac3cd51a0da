/** `npm start`'s entry point as a real process: banner, health, clean shutdown on signals. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';
import { repoRoot, waitForOutput } from '../support/process.ts';
import { tempDir } from '../support/runtime.ts';

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

function startMain() {
  return spawn(process.execPath, ['--import', 'tsx', 'local/main.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      DOGU_DATA_DIR: dataDir.path,
      PORT: '0',
      DOGU_DEMO_DATABASE_URL: database.url,
      POWERTOOLS_LOG_LEVEL: 'WARN',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

describe('local/main.ts', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`prints the URL and demo ids, answers /healthz, and exits 0 on ${signal}`, async () => {
      const child = startMain();
      try {
        const [banner, url] = await waitForOutput(
          child,
          /Dogu is running at (http:\/\/127\.0\.0\.1:\d+)[\s\S]+Run the demo:[\s\S]+executions/,
          45_000,
        );
        expect(banner).toContain('Demo project:      demo');
        expect(banner).toContain('npx dogu login');
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
      await waitForOutput(first, /Dogu is running at/, 45_000);
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

  it('takes over the lock of a process that was killed with SIGKILL', async () => {
    const crashed = startMain();
    await waitForOutput(crashed, /Dogu is running at/, 45_000);
    crashed.kill('SIGKILL');
    await once(crashed, 'exit');
    const next = startMain();
    try {
      const [, url] = await waitForOutput(next, /Dogu is running at (http:\/\/\S+)/, 45_000);
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
    } finally {
      next.kill('SIGTERM');
      await once(next, 'exit');
    }
  });
});
