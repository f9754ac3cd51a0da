/**
 * Scheduled times that passed while the embedded runtime was down are recorded as cancelled with the
 * reason (never silently dropped); runs left waiting or running are settled at start-up.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import { watermarkName } from '../../local/scheduling-startup.ts';
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
  it('records missed minutes as cancelled and settles interrupted runs', async () => {
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
