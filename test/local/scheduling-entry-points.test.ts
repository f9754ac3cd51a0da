/**
 * The AWS worker entry points (EventBridge target, Step Functions tasks) driven in-process against a
 * real embedded runtime's services: the events they receive reach the same domain code, and repeated
 * events (at-least-once delivery, Step Functions retries) do nothing more.
 */
import type { Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as finishBatch } from '../../functions/finish-batch.ts';
import { handler as runBatchChunk } from '../../functions/run-batch-chunk.ts';
import { handler as runJob } from '../../functions/run-job.ts';
import { handler as scheduledRun } from '../../functions/scheduled-run.ts';
import type { LocalRuntime } from '../../local/runtime.ts';
import { apiClient } from '../support/api.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

let dir: Awaited<ReturnType<typeof tempDir>>;
let runtime: LocalRuntime;
let admin: ReturnType<typeof apiClient>;
const env = '/api/v1/projects/demo/environments/development';

const context = (id: string) =>
  ({ awsRequestId: id, functionName: 'test', getRemainingTimeInMillis: () => 900_000 }) as unknown as Context;

beforeAll(async () => {
  dir = await tempDir('entry-points');
  runtime = await startTestRuntime(dir.path);
  admin = apiClient(runtime, await loginToken(runtime));
}, 120_000);
afterAll(async () => {
  await runtime?.close();
  await dir?.remove();
});

describe('worker entry points', () => {
  it('scheduled-run delivers a cron time once however often EventBridge sends it', async () => {
    const job = (
      await admin.post(`${env}/cron-jobs`, {
        name: 'From EventBridge',
        schedule: { kind: 'cron', expression: '0 9 ? * MON-FRI *' },
        actionId: 'list-orders',
        arguments: { status: 'paid' },
      })
    ).body;
    const event = {
      kind: 'cron' as const,
      projectId: 'demo',
      jobId: job.id,
      scheduledAt: '2026-11-23T00:00:00Z',
    };
    await Promise.all([scheduledRun(event, context('a')), scheduledRun(event, context('b'))]);
    await scheduledRun(event, context('c'));
    const runs = (await admin.get(`${env}/cron-jobs/${job.id}/runs`)).body.data;
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      scheduledAt: '2026-11-23T00:00:00.000Z',
      status: 'completed',
      attempt: 1,
    });
  });

  it('scheduled-run runs a reservation once', async () => {
    const reservation = (
      await admin.post(`${env}/reservations`, {
        actionId: 'list-orders',
        arguments: { status: 'paid' },
        runAt: new Date(Date.now() + 3600_000).toISOString(),
      })
    ).body;
    const event = { kind: 'reservation' as const, projectId: 'demo', reservationId: reservation.id };
    await scheduledRun(event, context('d'));
    await scheduledRun(event, context('e'));
    const after = (await admin.get(`${env}/reservations/${reservation.id}`)).body;
    expect(after).toMatchObject({ status: 'completed' });
    const execution = await admin.get(
      `/public/v1/projects/demo/environments/development/executions/${after.executionId}`,
    );
    expect(execution.body).toMatchObject({ via: 'reservation', origin: { reservationId: reservation.id } });
  });

  it('run-job, run-batch-chunk and finish-batch are harmless when repeated', async () => {
    const started = await admin.post(
      '/public/v1/projects/demo/environments/development/actions/list-orders/executions',
      {
        arguments: { status: 'paid' },
        async: true,
      },
    );
    const executionId = started.body.execution.id;
    await runtime.scheduling.jobs.idle();
    // Step Functions retried the task after the in-process runner ran it: nothing runs again.
    await runJob({ projectId: 'demo', environmentId: 'development', executionId }, context('f'));
    const execution = await admin.get(
      `/public/v1/projects/demo/environments/development/executions/${executionId}`,
    );
    expect(execution.body.status).toBe('succeeded');

    const batch = (
      await admin.post(`${env}/actions/list-orders/batches`, {
        rows: [{ status: 'paid' }, { status: 'shipped' }],
      })
    ).body.batch;
    await runtime.scheduling.jobs.idle();
    await runBatchChunk({ projectId: 'demo', batchId: batch.id, chunk: 0 }, context('g'));
    await finishBatch({ projectId: 'demo', batchId: batch.id }, context('h'));
    const view = (await admin.get(`${env}/batches/${batch.id}`)).body;
    expect(view.batch.status).toBe('finished');
    expect(view.rows.map((r: { status: string; attempt: number }) => [r.status, r.attempt])).toEqual([
      ['success', 1],
      ['success', 1],
    ]);
    const executions = new Set(view.rows.map((r: { executionId: string }) => r.executionId));
    expect(executions.size).toBe(2);
  });

  it('a chunk whose runner died: a row never recorded runs again, one recorded running is interrupted, an outcome is kept', async () => {
    const batch = (
      await admin.post(`${env}/actions/list-orders/batches`, {
        rows: [{ status: 'paid' }, { status: 'shipped' }, { status: 'pending' }],
      })
    ).body.batch;
    await runtime.scheduling.jobs.idle();
    const { schedules, executions } = runtime.services;
    const [chunk] = await schedules.listBatchChunks(batch.id);
    const [first, second, third] = chunk!.rows;
    // The runner claimed the chunk (planning an execution id per row) and died: the first row never
    // started, the second was recorded running, the third had ended.
    const ran = (await executions.getExecution(second!.executionId!))!;
    const { finishedAt: _f, durationMs: _d, ...started } = ran;
    await executions.putExecution({ ...started, id: 'exe_died_running', status: 'running', statements: [] });
    const died = {
      ...chunk!,
      status: 'running' as const,
      claimedBy: 'dead-runner',
      claimedAt: new Date(Date.now() - 20 * 60_000).toISOString(),
      rows: [
        { ...first!, status: 'waiting' as const, executionId: 'exe_never_recorded' },
        { ...second!, status: 'waiting' as const, executionId: 'exe_died_running' },
        { ...third!, status: 'waiting' as const },
      ],
      version: chunk!.version + 1,
    };
    expect(await schedules.saveBatchChunk(died, chunk!.version)).toBe(true);
    // Planned ids are bookkeeping: the batch view shows waiting rows without one.
    const before = (await admin.get(`${env}/batches/${batch.id}`)).body;
    expect(before.rows.map((r: { executionId?: string }) => r.executionId)).toEqual([
      undefined,
      undefined,
      undefined,
    ]);

    await runBatchChunk({ projectId: 'demo', batchId: batch.id, chunk: 0 }, context('i'));
    await finishBatch({ projectId: 'demo', batchId: batch.id }, context('j'));
    const view = (await admin.get(`${env}/batches/${batch.id}`)).body;
    const rows = view.rows as { status: string; executionId?: string; error?: { code: string } }[];
    expect(rows.map((r) => [r.status, r.error?.code])).toEqual([
      ['success', undefined],
      ['failure', 'interrupted'],
      ['success', undefined],
    ]);
    expect(rows[0]!.executionId).toMatch(/^exe_/);
    expect(rows[0]!.executionId).not.toBe('exe_never_recorded');
    expect((await executions.getExecution(rows[0]!.executionId!))?.status).toBe('succeeded');
    expect(rows[1]!.executionId).toBe('exe_died_running');
    expect(rows[2]!.executionId).toBe(third!.executionId);
    expect(view.progress).toMatchObject({ total: 3, success: 2, failure: 1, waiting: 0, running: 0 });
  });
});
