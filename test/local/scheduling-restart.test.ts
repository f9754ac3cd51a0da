/**
 * Scheduled times that passed while the embedded runtime was down are recorded as cancelled with the
 * reason (never silently dropped); runs left waiting or running, and async jobs in every state a
 * kill -9 can leave them in, are settled at start-up.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import { watermarkName } from '../../local/scheduling-startup.ts';
import type { Execution } from '../../shared/domain/model.ts';
import { apiClient } from '../support/api.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

let dir: Awaited<ReturnType<typeof tempDir>>;
let runtime: LocalRuntime | undefined;
afterAll(async () => {
  await runtime?.close();
  await dir?.remove();
});

const env = '/api/v1/projects/demo/environments/development';

describe('scheduling across a restart', () => {
  it('records missed minutes as cancelled and settles interrupted runs', { timeout: 240_000 }, async () => {
    dir = await tempDir('scheduling-restart');
    runtime = await startTestRuntime(dir.path);
    const admin = apiClient(runtime, await loginToken(runtime));
    const created = await admin.post(`${env}/cron-jobs`, {
      name: 'Every minute',
      schedule: { kind: 'cron', expression: '* * * * *' },
      actionId: 'list-orders',
      arguments: { status: 'delivered' },
    });
    expect(created.status).toBe(201);
    const { schedules } = runtime.services;
    // Pretend the job has existed for an hour and the runtime last looked five minutes ago.
    await runtime.scheduling.scheduler.stop();
    const job = (await schedules.getCronJob('demo', created.body.id))!;
    const hourAgo = new Date(Date.now() - 3600_000).toISOString();
    await schedules.saveCronJob({ ...job, updatedAt: hourAgo, version: job.version + 1 }, job.version);
    const fiveMinutesAgo = new Date(Date.now() - 5 * 60_000);
    await schedules.putRuntimeValue(watermarkName, fiveMinutesAgo.toISOString());
    // And a run left running, one left waiting, as a kill -9 would leave them.
    const base = {
      jobId: job.id,
      projectId: 'demo',
      environmentId: 'development',
      attempt: 1,
      updatedAt: hourAgo,
    };
    await schedules.createCronRun({ ...base, scheduledAt: '2026-01-01T00:00:00.000Z', status: 'running' });
    await schedules.createCronRun({ ...base, scheduledAt: '2026-01-01T00:01:00.000Z', status: 'waiting' });
    await runtime.close();

    runtime = await startTestRuntime(dir.path);
    const after = apiClient(runtime, await loginToken(runtime));
    const runs = (await after.get(`${env}/cron-jobs/${job.id}/runs?limit=500`)).body.data as {
      scheduledAt: string;
      status: string;
      reason?: string;
    }[];
    const missed = runs.filter(
      (r) => r.status === 'cancelled' && /not running at the scheduled time/.test(r.reason ?? ''),
    );
    // Whole minutes in (watermark, now]: four or five depending on where in the minute we are.
    expect(missed.length).toBeGreaterThanOrEqual(4);
    expect(missed.length).toBeLessThanOrEqual(6);
    for (const run of missed)
      expect(new Date(run.scheduledAt).getTime()).toBeGreaterThan(fiveMinutesAgo.getTime());
    expect(runs.find((r) => r.scheduledAt === '2026-01-01T00:00:00.000Z')).toMatchObject({
      status: 'error',
      reason: expect.stringMatching(/Interrupted/),
    });
    expect(runs.find((r) => r.scheduledAt === '2026-01-01T00:01:00.000Z')).toMatchObject({
      status: 'cancelled',
    });
    // Each scheduled time appears once.
    expect(new Set(runs.map((r) => r.scheduledAt)).size).toBe(runs.length);
    // And the job is armed again.
    expect(runtime.scheduling.scheduler.size).toBeGreaterThanOrEqual(1);
  });
});

describe('async jobs across a restart', () => {
  it('settles each state a kill can leave a job in', { timeout: 240_000 }, async () => {
    const jobsDir = await tempDir('async-restart');
    let rt = await startTestRuntime(jobsDir.path);
    try {
      const admin = apiClient(rt, await loginToken(rt));
      const publicEnv = '/public/v1/projects/demo/environments/development';
      const started = await admin.post(`${publicEnv}/actions/list-orders/executions`, {
        arguments: { status: 'delivered', limit: 1 },
        async: true,
      });
      expect(started.status).toBe(202);
      const templateId: string = started.body.execution.id;
      await rt.scheduling.jobs.idle();
      const { schedules, executions } = rt.services;
      const template = (await executions.getExecution(templateId))!;
      const job = (await schedules.getReservation('demo', templateId))!;
      expect(job).toMatchObject({ purpose: 'async_job', status: 'completed' });
      const { reason: _reason, ...jobBase } = job;
      const leave = async (
        id: string,
        status: 'scheduled' | 'running',
        execution?: Partial<Execution & { results: unknown }>,
      ) => {
        await schedules.createReservation({ ...jobBase, id, executionId: id, status });
        if (execution)
          await executions.putExecution({
            ...template,
            id,
            status: 'queued',
            statements: [],
            ...execution,
          } as Execution);
      };
      // Killed after the run was recorded succeeded, before the job's own last write.
      await leave('exe_finished', 'running', { status: 'succeeded' });
      // Killed after the job was claimed, before its execution started.
      await leave('exe_claimed', 'running', {
        status: 'queued',
        finishedAt: undefined,
        error: undefined,
        results: undefined,
      });
      // Killed between the job's write and its execution's: the caller never got a 202.
      await leave('exe_unanswered', 'scheduled');
      // Killed after the 202, before the job started.
      await leave('exe_accepted', 'scheduled', {
        status: 'queued',
        finishedAt: undefined,
        error: undefined,
        results: undefined,
      });
      await rt.close();

      rt = await startTestRuntime(jobsDir.path);
      await rt.scheduling.jobs.idle();
      const after = rt.services;
      expect(await after.executions.getExecution('exe_finished')).toMatchObject({ status: 'succeeded' });
      expect(await after.schedules.getReservation('demo', 'exe_finished')).toMatchObject({
        status: 'completed',
      });
      expect(await after.executions.getExecution('exe_claimed')).toMatchObject({
        status: 'failed',
        error: { code: 'interrupted', message: expect.stringMatching(/^Interrupted/) },
      });
      expect(await after.schedules.getReservation('demo', 'exe_claimed')).toMatchObject({ status: 'error' });
      expect(await after.executions.getExecution('exe_unanswered')).toBeUndefined();
      expect(await after.schedules.getReservation('demo', 'exe_unanswered')).toMatchObject({
        status: 'cancelled',
        reason: expect.stringMatching(/before the job was accepted/),
      });
      expect(await after.executions.getExecution('exe_accepted')).toMatchObject({ status: 'succeeded' });
      expect(await after.schedules.getReservation('demo', 'exe_accepted')).toMatchObject({
        status: 'completed',
      });
    } finally {
      await rt.close();
      await jobsDir.remove();
    }
  });
});
