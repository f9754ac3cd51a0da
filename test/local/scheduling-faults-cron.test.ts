/**
 * kill -9 of the embedded runtime around a scheduled time (issue 6). A job runs every minute; the
 * process dies while one run is running and stays down across the next minute. After a restart: the
 * interrupted run is `error` and was not run again, the minute passed while down is `cancelled` with
 * the reason, the next minute runs, and no scheduled time has two runs.
 *
 * Minute granularity makes this slow by nature: from the first run it takes two more minute
 * boundaries (one missed, one run), so the file needs 2-3 minutes. It has its own file so the
 * other fault tests run beside it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';
import { repoRoot, waitForOutput } from '../support/process.ts';
import { tempDir } from '../support/runtime.ts';

const minute = 60_000;
const scope = '/api/v1/projects/demo/environments/development';

let database: TestDatabase;
let dataDir: Awaited<ReturnType<typeof tempDir>>;
let client: pg.Client;
const children = new Set<ChildProcess>();

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = await tempDir('cron-kill');
  client = new pg.Client(database.connection);
  await client.connect();
  await client.query('CREATE TABLE cron_fault (at timestamptz NOT NULL)');
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await client?.end();
  await dataDir?.remove();
  await database?.drop();
});

async function startMain(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'local/main.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      DOGU_DATA_DIR: dataDir.path,
      PORT: '0',
      DOGU_DEMO_DATABASE_URL: database.url,
      DOGU_DEV_IDP_PORT: '0',
      POWERTOOLS_LOG_LEVEL: 'WARN',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  const [, url] = await waitForOutput(child, /Dogu is running at (http:\/\/\S+)/, 45_000);
  return { child, url: url! };
}

function api(url: string, token: string) {
  return async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    // biome-ignore lint/suspicious/noExplicitAny: the test asserts on the bodies it reads
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as any };
  };
}

interface Run {
  scheduledAt: string;
  status: string;
  attempt: number;
  reason?: string;
  executionId?: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(ms, 0)));

/** Polls the job's runs until `found` picks one, or fails after `timeoutMs`. */
async function waitForRun(
  call: ReturnType<typeof api>,
  jobId: string,
  found: (runs: Run[]) => Run | undefined,
  timeoutMs: number,
  what: string,
): Promise<Run> {
  const deadline = Date.now() + timeoutMs;
  let runs: Run[] = [];
  while (Date.now() < deadline) {
    const response = await call('GET', `${scope}/cron-jobs/${jobId}/runs`);
    runs = response.body.data;
    const run = found(runs);
    if (run) return run;
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${what}; runs: ${JSON.stringify(runs)}`);
}

describe('kill -9 around a scheduled time', () => {
  it('records the interrupted run as error, the missed minute as cancelled, and runs the next', {
    timeout: 240_000,
  }, async () => {
    const first = await startMain();
    const login = await fetch(`${first.url}/local/v1/login`, { method: 'POST' });
    const { token } = (await login.json()) as { token: string };
    let call = api(first.url, token);
    const action = await call('PUT', '/api/v1/projects/demo/actions/slow-insert', {
      id: 'slow-insert',
      name: 'Slow insert',
      kind: 'sql',
      dataSourceId: 'demo-postgres',
      // A few seconds of work, so the process can be killed while the run is running.
      statements: [
        { title: 'insert', sql: 'INSERT INTO cron_fault (at) SELECT clock_timestamp() FROM pg_sleep(4)' },
      ],
    });
    expect(action.status, JSON.stringify(action.body)).toBeLessThan(300);
    const job = await call('POST', `${scope}/cron-jobs`, {
      name: 'every minute',
      schedule: { kind: 'cron', expression: '* * * * ? *' },
      actionId: 'slow-insert',
    });
    expect(job.status, JSON.stringify(job.body)).toBe(201);
    const jobId: string = job.body.id;

    const interrupted = await waitForRun(
      call,
      jobId,
      (runs) => runs.find((r) => r.status === 'running'),
      minute + 15_000,
      'a running run',
    );
    first.child.kill('SIGKILL');
    await once(first.child, 'exit');
    const killedAt = Date.now();
    const firstTime = new Date(interrupted.scheduledAt).getTime();
    const missedTime = firstTime + minute;
    const nextTime = firstTime + 2 * minute;
    expect(killedAt).toBeLessThan(firstTime + 4_000); // still inside the run's 4 s of work

    // Stay down across the next scheduled minute.
    await sleep(missedTime + 2_000 - Date.now());
    const second = await startMain();
    try {
      const restartedAt = Date.now();
      expect(restartedAt).toBeLessThan(nextTime);
      call = api(second.url, token);
      const next = await waitForRun(
        call,
        jobId,
        (runs) =>
          runs.find((r) => r.scheduledAt === new Date(nextTime).toISOString() && r.status === 'completed'),
        nextTime + 30_000 - Date.now(),
        'the run of the next minute to complete',
      );
      expect(next).toMatchObject({ attempt: 1 });
      expect(next.executionId).toBeDefined();

      const { body } = await call('GET', `${scope}/cron-jobs/${jobId}/runs`);
      const runs: Run[] = body.data;
      const byTime = new Map(runs.map((r) => [r.scheduledAt, r]));
      // No scheduled time has two runs.
      expect(byTime.size).toBe(runs.length);
      expect(byTime.get(new Date(firstTime).toISOString())).toMatchObject({
        status: 'error',
        attempt: 1,
        reason:
          'Interrupted: the runtime stopped during the run. It may have partly run; check before retrying.',
      });
      expect(byTime.get(new Date(missedTime).toISOString())).toMatchObject({
        status: 'cancelled',
        attempt: 1,
        reason: 'The runtime was not running at the scheduled time.',
      });
      expect(byTime.get(new Date(missedTime).toISOString())?.executionId).toBeUndefined();

      // The interrupted run may have committed before the kill, but was not run again after the restart:
      // the only row written since the restart is the next minute's.
      const { rows } = await client.query<{ at: Date }>('SELECT at FROM cron_fault ORDER BY at');
      const sinceRestart = rows.filter((r) => r.at.getTime() >= restartedAt);
      expect(sinceRestart).toHaveLength(1);
      expect(sinceRestart[0]!.at.getTime()).toBeGreaterThanOrEqual(nextTime);
      expect(rows.length - sinceRestart.length).toBeLessThanOrEqual(1);
    } finally {
      second.child.kill('SIGTERM');
      await once(second.child, 'exit');
    }
  });
});
