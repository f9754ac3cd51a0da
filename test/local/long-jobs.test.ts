/**
 * Jobs with their own time limit (decision 0075) on a real embedded runtime (dynalite + PGlite):
 * the API takes `timeLimitSeconds` (1–1800, with async) and keeps it on the job; the long-job entry
 * CodeBuild runs on AWS (functions/run-long-job.ts) runs the job from its environment variables
 * with the 30-minute deadline; run-job's Lambda caps the same job at its own 14.5 minutes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { longJobEnv, runLongJob } from '../../functions/run-long-job.ts';
import { jobMaxExecutionMs } from '../../infra/scheduling.ts';
import type { LocalRuntime } from '../../local/runtime.ts';
import type { Execution } from '../../shared/domain/model.ts';
import { sweepAbandonedWork } from '../../shared/domain/scheduling/abandoned-work.ts';
import { runQueuedExecution } from '../../shared/domain/scheduling/async-executions.ts';
import { deliverCronRun, settleStaleCronRuns } from '../../shared/domain/scheduling/cron-runs.ts';
import type { Reservation } from '../../shared/domain/scheduling/model.ts';
import { runReservation } from '../../shared/domain/scheduling/reservations.ts';
import { type Services, schedulingDeps } from '../../shared/runtime/services.ts';
import { apiClient } from '../support/api.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

let dir: Awaited<ReturnType<typeof tempDir>>;
let runtime: LocalRuntime;
let admin: ReturnType<typeof apiClient>;
let executor: { kind: 'user'; id: string; email: string };
const publicEnv = '/public/v1/projects/demo/environments/development';
const thirtyMinutes = 30 * 60_000;

const echoAction = {
  id: 'long-echo',
  name: 'Long echo',
  kind: 'sql',
  dataSourceId: 'demo-postgres',
  parameters: [{ name: 'n', kind: 'number', required: true, integer: true }],
  statements: [{ title: 'echo', sql: 'SELECT CAST({{ n }} AS int) AS n' }],
};

beforeAll(async () => {
  dir = await tempDir('long-jobs');
  runtime = await startTestRuntime(dir.path);
  admin = apiClient(runtime, await loginToken(runtime));
  expect((await admin.put('/api/v1/projects/demo/actions/long-echo', echoAction)).status).toBeLessThan(300);
  const me = await admin.get('/public/v1/me');
  executor = { kind: 'user', id: me.body.id, email: me.body.email };
}, 120_000);
afterAll(async () => {
  await runtime?.close();
  await dir?.remove();
});

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`condition not met: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const deadlineOf = (execution: Execution) =>
  new Date(execution.deadlineAt!).getTime() - new Date(execution.startedAt).getTime();

/** A queued job as startAsyncExecution leaves it, without starting a runner (AWS starts the build). */
async function queueJob(id: string, timeLimitMs?: number): Promise<void> {
  const now = new Date().toISOString();
  await runtime.services.executions.putExecution({
    id,
    projectId: 'demo',
    environmentId: 'development',
    actionId: 'long-echo',
    actionVersion: 1,
    status: 'queued',
    principal: executor,
    via: 'async_job',
    arguments: {},
    startedAt: now,
    statements: [],
  });
  const job: Reservation = {
    id,
    purpose: 'async_job',
    projectId: 'demo',
    environmentId: 'development',
    actionId: 'long-echo',
    arguments: { n: 5 },
    runAt: now,
    timeZone: 'UTC',
    executor,
    createdBy: { id: executor.id, email: executor.email },
    status: 'scheduled',
    executionId: id,
    ...(timeLimitMs !== undefined ? { timeLimitMs } : {}),
    createdAt: now,
    updatedAt: now,
  };
  await runtime.services.schedules.createReservation(job);
}

/** The services as a worker with this job budget builds them (DOGU_MAX_JOB_EXECUTION_MS). */
const workerServices = (maxJobExecutionMs: number): Services => ({
  ...runtime.services,
  settings: { ...runtime.services.settings, maxJobExecutionMs },
});

describe('a job with its own time limit', () => {
  it('is refused with the field named unless it is an integer of 1–1800 seconds on an async run', async () => {
    for (const body of [
      { arguments: { n: 1 }, async: true, timeLimitSeconds: 'long' },
      { arguments: { n: 1 }, async: true, timeLimitSeconds: 1.5 },
      { arguments: { n: 1 }, timeLimitSeconds: 60 },
      { arguments: { n: 1 }, async: true, timeLimitSeconds: 1801 },
      { arguments: { n: 1 }, async: true, timeLimitSeconds: 0 },
    ]) {
      const answer = await admin.post(`${publicEnv}/actions/long-echo/executions`, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.errors[0]).toMatchObject({ pointer: '#/timeLimitSeconds' });
      expect(answer.body.errors[0].ja).toMatch(/1800/);
    }
  });

  it('is kept on the job and runs with its limit as the deadline (the runtime default otherwise)', async () => {
    const run = async (extra: Record<string, unknown>) => {
      const started = await admin.post(`${publicEnv}/actions/long-echo/executions`, {
        arguments: { n: 3 },
        async: true,
        ...extra,
      });
      expect(started.status).toBe(202);
      const id = started.body.execution.id as string;
      const job = await runtime.services.schedules.getReservation('demo', id);
      const execution = await until(
        () => runtime.services.executions.getExecution(id),
        (e) => e?.status === 'succeeded',
      );
      return { timeLimitMs: job?.timeLimitMs, deadline: deadlineOf(execution!) };
    };
    expect(await run({ timeLimitSeconds: 600 })).toEqual({ timeLimitMs: 600_000, deadline: 600_000 });
    expect(await run({ timeLimitSeconds: 1800 })).toEqual({
      timeLimitMs: thirtyMinutes,
      deadline: thirtyMinutes,
    });
    // No limit asked: the embedded runtime's job limit (spec 8's 30 minutes).
    expect(await run({})).toEqual({ timeLimitMs: undefined, deadline: thirtyMinutes });
  });
});

describe('the long-job entry (CodeBuild on AWS)', () => {
  it('runs the job named by its environment with the 30-minute deadline, once', async () => {
    await queueJob('exe_long1', thirtyMinutes);
    const env = { [longJobEnv.projectId]: 'demo', [longJobEnv.executionId]: 'exe_long1' };
    await runLongJob(env, Promise.resolve(workerServices(thirtyMinutes)));
    const execution = (await runtime.services.executions.getExecution('exe_long1'))!;
    expect(execution.status).toBe('succeeded');
    expect(deadlineOf(execution)).toBe(thirtyMinutes);
    expect((await runtime.services.schedules.getReservation('demo', 'exe_long1'))?.status).toBe('completed');
    // A second build of the same job (a retried start) finds it claimed and does nothing.
    await runLongJob(env, Promise.resolve(workerServices(thirtyMinutes)));
    expect((await runtime.services.executions.getExecution('exe_long1'))!.deadlineAt).toBe(
      execution.deadlineAt,
    );
  });

  it('fails (so the build fails and the Catch records it) when the job is not named', async () => {
    await expect(
      runLongJob({ [longJobEnv.projectId]: 'demo' }, Promise.resolve(workerServices(thirtyMinutes))),
    ).rejects.toThrow(/DOGU_JOB_EXECUTION_ID/);
    await expect(
      runLongJob(
        { [longJobEnv.projectId]: 'demo', [longJobEnv.executionId]: '../x' },
        Promise.resolve(workerServices(thirtyMinutes)),
      ),
    ).rejects.toThrow(/DOGU_JOB_EXECUTION_ID/);
  });

  it("is capped at run-job's 14.5 minutes when a Lambda runs it", async () => {
    await queueJob('exe_long2', thirtyMinutes);
    await runQueuedExecution(schedulingDeps(workerServices(jobMaxExecutionMs)), {
      projectId: 'demo',
      executionId: 'exe_long2',
    });
    const execution = (await runtime.services.executions.getExecution('exe_long2'))!;
    expect(execution.status).toBe('succeeded');
    expect(deadlineOf(execution)).toBe(jobMaxExecutionMs);
  });
});

describe('the sweeper (decision 0056) and a long job', () => {
  it("gives a running long job its own limit, not the Lambda workers' budget", async () => {
    await queueJob('exe_long3', thirtyMinutes);
    await queueJob('exe_short3');
    for (const id of ['exe_long3', 'exe_short3']) {
      const job = (await runtime.services.schedules.getReservation('demo', id))!;
      expect(
        await runtime.services.schedules.updateReservation({ ...job, status: 'running' }, 'scheduled'),
      ).toBe(true);
    }
    const claimedAt = Date.now();
    // The sweeper runs as a Lambda: its own job budget is run-job's 14.5 minutes.
    const sweepAt = (minutes: number) =>
      sweepAbandonedWork({
        ...schedulingDeps(workerServices(jobMaxExecutionMs)),
        clock: { now: () => new Date(claimedAt + minutes * 60_000) },
      });
    await sweepAt(20);
    const status = async (id: string) =>
      (await runtime.services.schedules.getReservation('demo', id))?.status;
    expect(await status('exe_short3')).toBe('error');
    expect(await status('exe_long3')).toBe('running');
    await sweepAt(36);
    expect(await status('exe_long3')).toBe('error');
  });
});

describe('a scheduled run is a job (decision 0101)', () => {
  it('a delivered cron run and a reservation get the job limit (30 minutes here), or their own', async () => {
    const deps = schedulingDeps(runtime.services);
    const deliverNew = async (extra: Record<string, unknown>, scheduledAt: string) => {
      const job = await admin.post('/api/v1/projects/demo/environments/development/cron-jobs', {
        name: `Job ${scheduledAt}`,
        schedule: { kind: 'cron', expression: '0 9 ? * MON-FRI *' },
        actionId: 'long-echo',
        arguments: { n: 2 },
        ...extra,
      });
      expect(job.status, JSON.stringify(job.body)).toBe(201);
      const run = (await deliverCronRun(deps, { projectId: 'demo', jobId: job.body.id, scheduledAt }))!;
      expect(run).toMatchObject({ status: 'completed' });
      return deadlineOf((await runtime.services.executions.getExecution(run.executionId!))!);
    };
    expect(await deliverNew({}, '2026-11-23T00:00:00Z')).toBe(thirtyMinutes);
    expect(await deliverNew({ timeLimitSeconds: 600 }, '2026-11-24T00:00:00Z')).toBe(600_000);

    const reservation = await admin.post('/api/v1/projects/demo/environments/development/reservations', {
      actionId: 'long-echo',
      arguments: { n: 2 },
      runAt: new Date(Date.now() + 3600_000).toISOString(),
    });
    expect(reservation.status).toBe(201);
    const ran = (await runReservation(deps, { projectId: 'demo', reservationId: reservation.body.id }))!;
    expect(ran.status).toBe('completed');
    expect(deadlineOf((await runtime.services.executions.getExecution(ran.executionId!))!)).toBe(
      thirtyMinutes,
    );
  });

  it('the sweeper waits for a delivered run its whole limit (a run started by hand: the minute)', async () => {
    const deps = schedulingDeps(runtime.services);
    const startedAt = new Date();
    const run = {
      jobId: 'cron_gone',
      projectId: 'demo',
      environmentId: 'development',
      scheduledAt: '2026-11-25T00:00:00.000Z',
      attempt: 1,
      status: 'running' as const,
      executionId: 'exe_cron_sweep',
      timeLimitMs: thirtyMinutes,
      startedAt: startedAt.toISOString(),
      updatedAt: startedAt.toISOString(),
    };
    expect(await runtime.services.schedules.createCronRun(run)).toBe(true);
    const at = (minutes: number) => new Date(startedAt.getTime() + minutes * 60_000);
    expect(await settleStaleCronRuns(deps, at(20))).toBe(0);
    expect(await settleStaleCronRuns(deps, at(36))).toBe(1);
    expect((await runtime.services.schedules.getCronRun('cron_gone', run.scheduledAt))?.status).toBe('error');
  });
});
