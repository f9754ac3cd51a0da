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
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import {
  type HttpApi,
  httpApi,
  localLoginToken,
  mainProcessFixture,
  stopGracefully,
} from '../support/scheduling-process.ts';

const minute = 60_000;
const scope = '/api/v1/projects/demo/environments/development';

const fixture = mainProcessFixture('cron-kill', 'CREATE TABLE cron_fault (at timestamptz NOT NULL)');

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
  call: HttpApi,
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
    const first = await fixture.start();
    const token = await localLoginToken(first.url);
    let call = httpApi(first.url, token);
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
    const second = await fixture.start();
    try {
      const restartedAt = Date.now();
      expect(restartedAt).toBeLessThan(nextTime);
      call = httpApi(second.url, token);
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
      const { rows } = await fixture.database.query<{ at: Date }>('SELECT at FROM cron_fault ORDER BY at');
      const sinceRestart = rows.filter((r) => r.at.getTime() >= restartedAt);
      expect(sinceRestart).toHaveLength(1);
      expect(sinceRestart[0]!.at.getTime()).toBeGreaterThanOrEqual(nextTime);
      expect(rows.length - sinceRestart.length).toBeLessThanOrEqual(1);
    } finally {
      await stopGracefully(second.child);
    }
  });
});
