/**
 * The embedded runtime's journaled scheduling store: conditions decided in memory, every change in
 * the journal before the caller goes on, stored behind; a journal left by a crash is stored at the
 * next open; lists see everything.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedDynamoDb, startEmbeddedDynamoDb } from '../../local/embedded-dynamodb.ts';
import { JournaledSchedulingStore } from '../../local/journaled-scheduling-store.ts';
import { DynamoDbSchedulingStore } from '../../shared/adapters/dynamodb/dynamodb-scheduling-store.ts';
import type { BatchChunk, CronRun } from '../../shared/domain/scheduling/model.ts';
import { tempDir } from '../support/runtime.ts';

let dir: Awaited<ReturnType<typeof tempDir>>;
let dynamo: EmbeddedDynamoDb;
let inner: DynamoDbSchedulingStore;
beforeAll(async () => {
  dir = await tempDir('journaled-scheduling');
  dynamo = await startEmbeddedDynamoDb(join(dir.path, 'dynamodb'), 'dogu');
  inner = new DynamoDbSchedulingStore(dynamo.client, 'dogu');
});
afterAll(async () => {
  await dynamo?.close();
  await dir?.remove();
});

const run = (scheduledAt: string, overrides: Partial<CronRun> = {}): CronRun => ({
  jobId: 'cron_1',
  projectId: 'p',
  environmentId: 'e',
  scheduledAt,
  attempt: 1,
  status: 'waiting',
  updatedAt: scheduledAt,
  ...overrides,
});

const chunk = (version: number, status: BatchChunk['status'] = 'waiting'): BatchChunk => ({
  batchId: 'bat_1',
  index: 0,
  status,
  version,
  rows: [{ index: 0, arguments: { n: 1 }, status: 'waiting', attempt: 1 }],
});

describe('JournaledSchedulingStore', () => {
  it('creates a run once among concurrent creators, updates it conditionally, lists after flushing', async () => {
    const store = await JournaledSchedulingStore.open(inner, join(dir.path, 'a.journal'));
    const future = new Date(Date.now() + 60_000).toISOString();
    const created = await Promise.all(Array.from({ length: 8 }, () => store.createCronRun(run(future))));
    expect(created.filter(Boolean)).toHaveLength(1);
    expect(
      await store.updateCronRun(run(future, { status: 'running' }), { status: 'waiting', attempt: 1 }),
    ).toBe(true);
    expect(
      await store.updateCronRun(run(future, { status: 'error' }), { status: 'waiting', attempt: 1 }),
    ).toBe(false);
    // A run the store held before this process opened is found there.
    await inner.createCronRun(run('2026-01-01T00:00:00.000Z', { status: 'completed' }));
    expect(await store.createCronRun(run('2026-01-01T00:00:00.000Z'))).toBe(false);
    expect((await store.getCronRun('cron_1', '2026-01-01T00:00:00Z'))?.status).toBe('completed');
    const { runs } = await store.listCronRuns('cron_1', {});
    expect(runs.map((r) => [r.scheduledAt, r.status])).toEqual([
      [future, 'running'],
      ['2026-01-01T00:00:00.000Z', 'completed'],
    ]);
    expect((await store.listCronRunsByStatus('running')).map((r) => r.scheduledAt)).toEqual([future]);
    await store.close();
  });

  it('claims a chunk once by version', async () => {
    const store = await JournaledSchedulingStore.open(inner, join(dir.path, 'b.journal'));
    await store.createBatch(
      {
        id: 'bat_1',
        projectId: 'p',
        environmentId: 'e',
        actionId: 'a',
        executor: { kind: 'user', id: 'u', email: 'u@example.com' },
        createdBy: { id: 'u', email: 'u@example.com' },
        status: 'running',
        attempt: 1,
        rowCount: 1,
        chunkSize: 25,
        chunkCount: 1,
        concurrency: 1,
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:00:00.000Z',
      },
      [chunk(1)],
    );
    const claims = await Promise.all(
      Array.from({ length: 10 }, () => store.saveBatchChunk(chunk(2, 'running'), 1)),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect((await store.getBatchChunk('bat_1', 0))?.status).toBe('running');
    expect((await store.listBatchChunks('bat_1')).map((c) => c.version)).toEqual([2]);
    await store.close();
  });

  it('stores what a crashed process left in its journal, latest version of each record', async () => {
    const path = join(dir.path, 'c.journal');
    const crashed = await JournaledSchedulingStore.open(inner, path);
    const at = new Date(Date.now() + 120_000).toISOString();
    await crashed.createCronRun(run(at));
    await crashed.updateCronRun(run(at, { status: 'running' }), { status: 'waiting', attempt: 1 });
    await crashed.updateCronRun(run(at, { status: 'completed' }), { status: 'running', attempt: 1 });
    // No close, no flush: as after kill -9 (the journal file has all three versions).
    const reopened = await JournaledSchedulingStore.open(inner, path);
    expect((await inner.getCronRun('cron_1', at))?.status).toBe('completed');
    await reopened.close();
  });
});
