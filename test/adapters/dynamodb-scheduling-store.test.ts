/**
 * The DynamoDB scheduling store against the embedded DynamoDB (dynalite on disk). The store under
 * test reads Query pages of 3 items, so every listing has to follow several DynamoDB pages.
 */
import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedDynamoDb, startEmbeddedDynamoDb } from '../../local/embedded-dynamodb.ts';
import { DynamoDbSchedulingStore } from '../../shared/adapters/dynamodb/dynamodb-scheduling-store.ts';
import { keys } from '../../shared/adapters/dynamodb/table-schema.ts';
import { DoguError } from '../../shared/domain/errors.ts';
import type { StatementResult } from '../../shared/domain/model.ts';
import { AlreadyExistsError } from '../../shared/domain/ports.ts';
import type {
  Batch,
  BatchChunk,
  CronJob,
  CronRun,
  CronRunStatus,
  Reservation,
} from '../../shared/domain/scheduling/model.ts';
import { tempDir } from '../support/runtime.ts';

const table = 'dogu';
let dynamo: EmbeddedDynamoDb;
let store: DynamoDbSchedulingStore;
let dir: Awaited<ReturnType<typeof tempDir>>;
const now = '2026-11-22T00:00:00.000Z';
const executor = { kind: 'user' as const, id: 'usr_a', email: 'ann@example.com' };

beforeAll(async () => {
  dir = await tempDir('scheduling-store');
  dynamo = await startEmbeddedDynamoDb(dir.path, table);
  store = new DynamoDbSchedulingStore(dynamo.client, table, { queryPageSize: 3 });
});
afterAll(async () => {
  await dynamo?.close();
  await dir?.remove();
});

const rawItem = async (key: { pk: string; sk: string }) =>
  (await dynamo.client.send(new GetCommand({ TableName: table, Key: key, ConsistentRead: true }))).Item;

const cronJob = (overrides: Partial<CronJob> = {}): CronJob => ({
  id: 'job_1',
  projectId: 'p1',
  environmentId: 'dev',
  name: 'Nightly',
  schedule: { kind: 'cron', expression: '0 9 ? * MON-FRI *' },
  timeZone: 'Asia/Tokyo',
  actionId: 'a1',
  arguments: { limit: 10 },
  executor,
  setBy: { id: 'usr_a', email: 'ann@example.com' },
  state: 'running',
  overlap: 'skip',
  createdAt: now,
  updatedAt: now,
  version: 1,
  ...overrides,
});

/** A run at minute `minute` of 2026-12-01 09:00 UTC. */
const at = (minute: number) => new Date(Date.UTC(2026, 11, 1, 9, minute)).toISOString();
const cronRun = (jobId: string, minute: number, status: CronRunStatus = 'waiting'): CronRun => ({
  jobId,
  projectId: 'p1',
  environmentId: 'dev',
  scheduledAt: at(minute),
  attempt: 1,
  status,
  updatedAt: now,
});

const reservation = (overrides: Partial<Reservation> = {}): Reservation => ({
  id: 'rsv_1',
  projectId: 'p1',
  environmentId: 'dev',
  actionId: 'a1',
  arguments: {},
  runAt: '2026-12-24T00:00:00.000Z',
  timeZone: 'Asia/Tokyo',
  executor,
  createdBy: { id: 'usr_a', email: 'ann@example.com' },
  status: 'scheduled',
  createdAt: now,
  updatedAt: now,
  ...overrides,
});

const batch = (overrides: Partial<Batch> = {}): Batch => ({
  id: 'bat_01',
  projectId: 'p1',
  environmentId: 'dev',
  actionId: 'a1',
  executor,
  createdBy: { id: 'usr_a', email: 'ann@example.com' },
  status: 'waiting',
  attempt: 1,
  rowCount: 2,
  chunkSize: 1,
  chunkCount: 2,
  concurrency: 1,
  createdAt: now,
  updatedAt: now,
  ...overrides,
});

const chunk = (batchId: string, index: number): BatchChunk => ({
  batchId,
  index,
  status: 'waiting',
  rows: [{ index, arguments: { id: index }, status: 'waiting', attempt: 0 }],
  version: 1,
});

describe('DynamoDbSchedulingStore: cron jobs', () => {
  it('creates a job once, then saves only from the stored version', async () => {
    const job = cronJob({ id: 'job_save' });
    expect(await store.saveCronJob(job, 0)).toBe(true);
    expect(await store.saveCronJob({ ...job, name: 'Other' }, 0)).toBe(false);
    expect(await store.getCronJob('p1', 'job_save')).toEqual(job);

    const renamed = { ...job, name: 'Renamed', version: 2 };
    expect(await store.saveCronJob(renamed, 1)).toBe(true);
    expect(await store.saveCronJob({ ...job, name: 'Stale', version: 2 }, 1)).toBe(false);
    expect(await store.getCronJob('p1', 'job_save')).toEqual(renamed);
    expect(await store.getCronJob('p1', 'missing')).toBeUndefined();
    expect(await store.getCronJob('p2', 'job_save')).toBeUndefined();
  });

  it('lists the jobs of a project by name, of one environment when asked, and every job of every project', async () => {
    const jobs = [
      cronJob({ id: 'job_l1', projectId: 'list', name: 'Delta', environmentId: 'dev' }),
      cronJob({ id: 'job_l2', projectId: 'list', name: 'alpha', environmentId: 'prod' }),
      cronJob({ id: 'job_l3', projectId: 'list', name: 'Charlie', environmentId: 'dev' }),
      cronJob({ id: 'job_l4', projectId: 'list', name: 'Bravo', environmentId: 'prod' }),
      cronJob({ id: 'job_l5', projectId: 'list', name: 'Echo', environmentId: 'dev' }),
      cronJob({ id: 'job_o1', projectId: 'list-other', name: 'Other', environmentId: 'dev' }),
    ];
    for (const job of jobs) expect(await store.saveCronJob(job, 0)).toBe(true);

    expect((await store.listCronJobs('list')).map((j) => j.name)).toEqual([
      'Bravo',
      'Charlie',
      'Delta',
      'Echo',
      'alpha',
    ]);
    expect((await store.listCronJobs('list', 'dev')).map((j) => j.id)).toEqual([
      'job_l3',
      'job_l1',
      'job_l5',
    ]);
    expect(await store.listCronJobs('nothing-here')).toEqual([]);

    const all = await store.listAllCronJobs();
    for (const job of jobs) expect(all).toContainEqual(job);
    expect(all.some((job) => 'gsi1pk' in job || 'pk' in job || 'type' in job)).toBe(false);
  });

  it('deletes a job with its whole run history', async () => {
    const job = cronJob({ id: 'job_del' });
    await store.saveCronJob(job, 0);
    // More runs than one BatchWriteItem request takes (25).
    for (let minute = 0; minute < 30; minute++)
      await store.createCronRun(cronRun('job_del', minute, 'completed'));
    await store.createCronRun(cronRun('job_del', 30, 'waiting'));
    await store.createCronRun(cronRun('job_keep', 0));

    expect(await store.deleteCronJob('p1', 'job_del')).toBe(true);
    expect(await store.getCronJob('p1', 'job_del')).toBeUndefined();
    const left = await dynamo.client.send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': 'CRONRUN#job_del' },
        ConsistentRead: true,
      }),
    );
    expect(left.Items).toEqual([]);
    expect((await store.listCronRunsByStatus('waiting')).filter((r) => r.jobId === 'job_del')).toEqual([]);
    expect(await store.getCronRun('job_keep', at(0))).toEqual(cronRun('job_keep', 0));
    expect(await store.deleteCronJob('p1', 'job_del')).toBe(false);
  });
});

describe('DynamoDbSchedulingStore: cron runs', () => {
  it('creates the run of a scheduled time once: a duplicate delivery changes nothing', async () => {
    const run = cronRun('job_dup', 0);
    const attempts = await Promise.all(
      [1, 2, 3].map((n) => store.createCronRun({ ...run, reason: `copy ${n}` })),
    );
    expect(attempts.filter(Boolean)).toHaveLength(1);
    const stored = await store.getCronRun('job_dup', run.scheduledAt);
    expect(stored?.reason).toMatch(/^copy [123]$/);
    expect(await store.createCronRun(cronRun('job_dup', 0, 'running'))).toBe(false);
    expect((await store.getCronRun('job_dup', run.scheduledAt))?.status).toBe('waiting');
  });

  it('finds a run by any spelling of its time and refuses to store a time that would sort wrongly', async () => {
    await store.createCronRun(cronRun('job_time', 5));
    expect((await store.getCronRun('job_time', '2026-12-01T09:05:00Z'))?.scheduledAt).toBe(at(5));
    expect(await store.getCronRun('job_time', 'not a time')).toBeUndefined();
    await expect(
      store.createCronRun({ ...cronRun('job_time', 6), scheduledAt: '2026-12-01T09:06:00Z' }),
    ).rejects.toThrow(/not written as Date.toISOString/);
  });

  it('updates a run only from the expected status and attempt', async () => {
    const run = cronRun('job_upd', 0);
    await store.createCronRun(run);
    const started: CronRun = { ...run, status: 'running', executionId: 'exe_1', startedAt: now };
    expect(await store.updateCronRun(started, { status: 'waiting', attempt: 1 })).toBe(true);
    expect(
      await store.updateCronRun({ ...run, status: 'cancelled' }, { status: 'waiting', attempt: 1 }),
    ).toBe(false);
    expect(
      await store.updateCronRun({ ...started, status: 'error' }, { status: 'running', attempt: 2 }),
    ).toBe(false);
    expect(await store.getCronRun('job_upd', run.scheduledAt)).toEqual(started);

    const retried: CronRun = {
      ...started,
      attempt: 2,
      status: 'waiting',
      previousAttempts: [{ attempt: 1, status: 'error', executionId: 'exe_1', reason: 'failed' }],
    };
    expect(await store.updateCronRun(retried, { status: 'running', attempt: 1 })).toBe(true);
    expect(await store.getCronRun('job_upd', run.scheduledAt)).toEqual(retried);
    // No run there: nothing to update, and nothing is created.
    expect(await store.updateCronRun(cronRun('job_upd', 59), { status: 'waiting', attempt: 1 })).toBe(false);
    expect(await store.getCronRun('job_upd', at(59))).toBeUndefined();
  });

  it('indexes runs by status only while waiting or running', async () => {
    const run = cronRun('job_sparse', 0);
    await store.createCronRun(run);
    await store.createCronRun(cronRun('job_sparse', 1, 'completed'));
    const running: CronRun = { ...run, status: 'running' };
    await store.updateCronRun(running, { status: 'waiting', attempt: 1 });

    const ofJob = async (status: CronRunStatus) =>
      (await store.listCronRunsByStatus(status)).filter((r) => r.jobId === 'job_sparse');
    expect(await ofJob('waiting')).toEqual([]);
    expect(await ofJob('running')).toEqual([running]);
    expect((await rawItem(keys.cronRun('job_sparse', at(1))))?.gsi1pk).toBeUndefined();

    await store.updateCronRun({ ...running, status: 'completed' }, { status: 'running', attempt: 1 });
    expect(await ofJob('running')).toEqual([]);
    const stored = await rawItem(keys.cronRun('job_sparse', at(0)));
    expect(stored).toMatchObject({ status: 'completed', type: 'cronRun' });
    expect(stored).not.toHaveProperty('gsi1pk');
    expect(stored).not.toHaveProperty('gsi1sk');
    await expect(store.listCronRunsByStatus('completed')).rejects.toThrow(/only while waiting or running/);
  });
});

describe('DynamoDbSchedulingStore: listing runs', () => {
  const statusOf = (minute: number): CronRunStatus =>
    minute % 3 === 0 ? 'error' : minute === 19 || minute === 2 ? 'cancelled' : 'completed';
  beforeAll(async () => {
    // Minutes 0..19; every third one failed.
    for (let minute = 0; minute < 20; minute++)
      await store.createCronRun(cronRun('job_list', minute, statusOf(minute)));
  });
  const minutesOf = (runs: CronRun[]) => runs.map((run) => new Date(run.scheduledAt).getUTCMinutes());

  it('answers newest first, without key attributes', async () => {
    const { runs, cursor } = await store.listCronRuns('job_list', {});
    expect(minutesOf(runs)).toEqual([19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    expect(cursor).toBeUndefined();
    expect(runs[0]).toEqual(cronRun('job_list', 19, statusOf(19)));
  });

  it('filters by status and by an inclusive time range', async () => {
    expect(minutesOf((await store.listCronRuns('job_list', { status: 'error' })).runs)).toEqual([
      18, 15, 12, 9, 6, 3, 0,
    ]);
    expect(minutesOf((await store.listCronRuns('job_list', { from: at(5), to: at(8) })).runs)).toEqual([
      8, 7, 6, 5,
    ]);
    // Bounds in another spelling of the same times.
    const spelled = await store.listCronRuns('job_list', {
      status: 'error',
      from: '2026-12-01T18:03:00+09:00',
      to: '2026-12-01T09:12:00Z',
    });
    expect(minutesOf(spelled.runs)).toEqual([12, 9, 6, 3]);
    expect((await store.listCronRuns('job_list', { from: at(9), to: at(8) })).runs).toEqual([]);
    expect((await store.listCronRuns('job_other', {})).runs).toEqual([]);
  });

  it('pages with a cursor, filtered, across DynamoDB pages that hold few or no matches', async () => {
    const seen: number[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await store.listCronRuns('job_list', { status: 'error', limit: 2, cursor });
      expect(page.runs.length).toBeLessThanOrEqual(2);
      expect(page.runs.every((run) => run.status === 'error')).toBe(true);
      seen.push(...minutesOf(page.runs));
      cursor = page.cursor;
      pages++;
    } while (cursor);
    expect(seen).toEqual([18, 15, 12, 9, 6, 3, 0]);
    expect(pages).toBe(4);
  });

  it('reads on through DynamoDB pages without a match until the page is full or the runs end', async () => {
    const first = await store.listCronRuns('job_list', { status: 'cancelled', limit: 1 });
    expect(minutesOf(first.runs)).toEqual([19]);
    const second = await store.listCronRuns('job_list', {
      status: 'cancelled',
      limit: 1,
      cursor: first.cursor,
    });
    expect(minutesOf(second.runs)).toEqual([2]);
    const last = await store.listCronRuns('job_list', {
      status: 'cancelled',
      limit: 1,
      cursor: second.cursor,
    });
    expect(last).toEqual({ runs: [] });
    const all = await store.listCronRuns('job_list', { status: 'cancelled' });
    expect(all).toEqual({
      runs: [cronRun('job_list', 19, 'cancelled'), cronRun('job_list', 2, 'cancelled')],
    });
  });

  it('pages within a time range without a filter', async () => {
    const first = await store.listCronRuns('job_list', { from: at(3), to: at(10), limit: 3 });
    expect(minutesOf(first.runs)).toEqual([10, 9, 8]);
    const second = await store.listCronRuns('job_list', {
      from: at(3),
      to: at(10),
      limit: 3,
      cursor: first.cursor,
    });
    expect(minutesOf(second.runs)).toEqual([7, 6, 5]);
    const third = await store.listCronRuns('job_list', {
      from: at(3),
      to: at(10),
      limit: 3,
      cursor: second.cursor,
    });
    expect(minutesOf(third.runs)).toEqual([4, 3]);
    expect(third.cursor).toBeUndefined();
  });

  it('answers 50 runs by default and at most 500', async () => {
    const runs = Array.from({ length: 501 }, (_, i) => ({
      ...cronRun('job_many', 0, 'completed'),
      scheduledAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
    }));
    for (let i = 0; i < runs.length; i += 50)
      await Promise.all(runs.slice(i, i + 50).map((run) => store.createCronRun(run)));
    const defaultStore = new DynamoDbSchedulingStore(dynamo.client, table);

    const first = await defaultStore.listCronRuns('job_many', {});
    expect(first.runs).toHaveLength(50);
    expect(first.runs[0]?.scheduledAt).toBe(runs[500]?.scheduledAt);
    expect(first.cursor).toBeDefined();
    expect((await defaultStore.listCronRuns('job_many', { limit: Number.NaN })).runs).toHaveLength(50);
    expect((await defaultStore.listCronRuns('job_many', { limit: 0 })).runs).toHaveLength(1);
    const most = await defaultStore.listCronRuns('job_many', { limit: 10_000 });
    expect(most.runs).toHaveLength(500);
    expect(most.runs.at(-1)?.scheduledAt).toBe(runs[1]?.scheduledAt);
    const rest = await defaultStore.listCronRuns('job_many', { limit: 10_000, cursor: most.cursor });
    expect(rest.runs.map((run) => run.scheduledAt)).toEqual([runs[0]?.scheduledAt]);
    expect(rest.cursor).toBeUndefined();
  });

  it('refuses a cursor or a bound it cannot read, naming the parameter', async () => {
    const refusal = async (query: Parameters<DynamoDbSchedulingStore['listCronRuns']>[1]) => {
      const error = await store.listCronRuns('job_list', query).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DoguError);
      return error as DoguError;
    };
    expect((await refusal({ cursor: 'not!base64' })).extra).toEqual({ parameter: 'cursor' });
    const forged = Buffer.from(JSON.stringify({ sk: 'PROJECT#x' })).toString('base64url');
    expect((await refusal({ cursor: forged })).message).toMatch(/'cursor' is not one this endpoint returned/);
    const tooLate = await refusal({ from: 'yesterday' });
    expect(tooLate.code).toBe('bad_request');
    expect(tooLate.message).toMatch(/'from' must be an ISO 8601 time/);
  });
});

describe('DynamoDbSchedulingStore: reservations', () => {
  it('creates, reads, lists and changes a reservation only from the expected status', async () => {
    const first = reservation({ id: 'rsv_a', projectId: 'rp', runAt: '2026-12-24T00:00:00.000Z' });
    const second = reservation({ id: 'rsv_b', projectId: 'rp', runAt: '2026-12-25T00:00:00.000Z' });
    const prod = reservation({ id: 'rsv_c', projectId: 'rp', environmentId: 'prod' });
    for (const r of [first, second, prod]) await store.createReservation(r);
    await expect(store.createReservation({ ...first, actionId: 'other' })).rejects.toBeInstanceOf(
      AlreadyExistsError,
    );

    expect(await store.getReservation('rp', 'rsv_a')).toEqual(first);
    expect(await store.getReservation('rp', 'missing')).toBeUndefined();
    expect((await store.listReservations('rp', 'dev')).map((r) => r.id)).toEqual(['rsv_b', 'rsv_a']);
    expect((await store.listReservations('rp')).map((r) => r.id)).toEqual(['rsv_b', 'rsv_c', 'rsv_a']);

    const running = { ...first, status: 'running' as const };
    const claims = await Promise.all([1, 2, 3, 4].map(() => store.updateReservation(running, 'scheduled')));
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await store.updateReservation({ ...first, status: 'cancelled' }, 'scheduled')).toBe(false);
    expect(await store.getReservation('rp', 'rsv_a')).toEqual(running);
  });

  it('indexes reservations by status only while scheduled or running, earliest first', async () => {
    const later = reservation({ id: 'rsv_idx1', projectId: 'ri', runAt: '2027-02-01T00:00:00.000Z' });
    const sooner = reservation({ id: 'rsv_idx2', projectId: 'ri', runAt: '2027-01-01T00:00:00.000Z' });
    await store.createReservation(later);
    await store.createReservation(sooner);
    const ofProject = async (status: Reservation['status']) =>
      (await store.listReservationsByStatus(status)).filter((r) => r.projectId === 'ri').map((r) => r.id);
    expect(await ofProject('scheduled')).toEqual(['rsv_idx2', 'rsv_idx1']);

    await store.updateReservation({ ...sooner, status: 'running' }, 'scheduled');
    expect(await ofProject('scheduled')).toEqual(['rsv_idx1']);
    expect(await ofProject('running')).toEqual(['rsv_idx2']);
    await store.updateReservation({ ...sooner, status: 'completed', executionId: 'exe_r' }, 'running');
    await store.updateReservation({ ...later, status: 'cancelled' }, 'scheduled');
    expect(await ofProject('running')).toEqual([]);
    expect(await ofProject('scheduled')).toEqual([]);
    expect(await rawItem(keys.reservation('ri', 'rsv_idx2'))).not.toHaveProperty('gsi1pk');
    await expect(store.listReservationsByStatus('cancelled')).rejects.toThrow(
      /only while scheduled or running/,
    );
  });
});

describe('DynamoDbSchedulingStore: batches', () => {
  it('writes every chunk and then the batch, and reads the chunks in index order', async () => {
    const created = batch({ id: 'bat_010', rowCount: 60, chunkCount: 60 });
    const chunks = Array.from({ length: 60 }, (_, index) => chunk('bat_010', index));
    await store.createBatch(created, chunks);

    expect(await store.getBatch('p1', 'bat_010')).toEqual(created);
    expect(await store.listBatchChunks('bat_010')).toEqual(chunks);
    expect(await store.getBatchChunk('bat_010', 42)).toEqual(chunks[42]);
    expect(await store.getBatchChunk('bat_010', 60)).toBeUndefined();
    expect(await store.listBatchChunks('bat_none')).toEqual([]);
  });

  it('lets exactly one of ten concurrent claims of a chunk win', async () => {
    await store.createBatch(batch({ id: 'bat_020' }), [chunk('bat_020', 0), chunk('bat_020', 1)]);
    const claims = await Promise.all(
      Array.from({ length: 10 }, (_, runner) =>
        store.saveBatchChunk(
          {
            ...chunk('bat_020', 0),
            status: 'running',
            claimedBy: `runner-${runner}`,
            claimedAt: now,
            version: 2,
          },
          1,
        ),
      ),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
    const winner = `runner-${claims.indexOf(true)}`;
    expect(await store.getBatchChunk('bat_020', 0)).toMatchObject({
      status: 'running',
      claimedBy: winner,
      version: 2,
    });
    expect(await store.saveBatchChunk({ ...chunk('bat_020', 0), version: 2 }, 1)).toBe(false);
    expect(await store.getBatchChunk('bat_020', 1)).toEqual(chunk('bat_020', 1));
    // Version 0: only a chunk that does not exist yet.
    expect(await store.saveBatchChunk(chunk('bat_020', 1), 0)).toBe(false);
    expect(await store.saveBatchChunk(chunk('bat_020', 2), 0)).toBe(true);
  });

  it('lists batches newest first and indexes them by status only while waiting or running', async () => {
    const older = batch({ id: 'bat_0193a', projectId: 'bp' });
    const newer = batch({ id: 'bat_0193b', projectId: 'bp', status: 'running' });
    const prod = batch({ id: 'bat_0193c', projectId: 'bp', environmentId: 'prod' });
    for (const b of [older, newer, prod]) await store.createBatch(b, [chunk(b.id, 0)]);
    expect((await store.listBatches('bp')).map((b) => b.id)).toEqual(['bat_0193c', 'bat_0193b', 'bat_0193a']);
    expect((await store.listBatches('bp', 'dev')).map((b) => b.id)).toEqual(['bat_0193b', 'bat_0193a']);

    const ofProject = async (status: Batch['status']) =>
      (await store.listBatchesByStatus(status)).filter((b) => b.projectId === 'bp').map((b) => b.id);
    expect(await ofProject('waiting')).toEqual(['bat_0193a', 'bat_0193c']);
    expect(await ofProject('running')).toEqual(['bat_0193b']);

    const finished = { ...newer, status: 'finished' as const, finishedAt: now };
    await store.putBatch(finished);
    await store.putBatch({ ...older, status: 'running' });
    expect(await ofProject('running')).toEqual(['bat_0193a']);
    expect(await store.getBatch('bp', 'bat_0193b')).toEqual(finished);
    expect(await rawItem(keys.batch('bp', 'bat_0193b'))).not.toHaveProperty('gsi1pk');
    await expect(store.listBatchesByStatus('finished')).rejects.toThrow(/only while waiting or running/);
  });
});

describe('DynamoDbSchedulingStore: execution results and runtime values', () => {
  const largeResults = (): StatementResult[] => [
    {
      title: 'Orders',
      status: 'succeeded',
      columns: [
        { name: 'id', type: 'number' },
        { name: 'note', type: 'string' },
      ],
      // About 1.2 MB, with multi-byte characters that part boundaries will cut through.
      rows: Array.from({ length: 6000 }, (_, id) => ({ id, note: `注文 ${id} ${'データ'.repeat(60)}` })),
      rowCount: 6000,
      messages: [],
    },
    {
      title: 'Count',
      status: 'failed',
      columns: [],
      rows: [],
      rowCount: 0,
      messages: ['x'],
      error: { code: 'e', message: 'm' },
    },
  ];

  it('round-trips a result of about 1.2 MB over several items', async () => {
    const results = largeResults();
    const size = Buffer.byteLength(JSON.stringify(results));
    expect(size).toBeGreaterThan(1_150_000);
    await store.putExecutionResults('exe_big', results);
    expect(await store.getExecutionResults('exe_big')).toEqual(results);
    const meta = await rawItem(keys.executionResultMeta('exe_big'));
    expect(meta?.partCount).toBe(Math.ceil(size / 300_000));
  });

  it('reads nothing for an execution without results or with an unfinished write', async () => {
    expect(await store.getExecutionResults('exe_none')).toBeUndefined();
    await store.putExecutionResults('exe_partial', largeResults());
    // As if the writer had stopped after its parts: the meta item is what makes a result readable.
    await dynamo.client.send(
      new DeleteCommand({
        TableName: table,
        Key: keys.executionResultMeta('exe_partial'),
      }),
    );
    expect(await store.getExecutionResults('exe_partial')).toBeUndefined();
  });

  it('never reads parts of another write as one result', async () => {
    await store.putExecutionResults('exe_torn', largeResults());
    // As if a second write of the same result had replaced the first part and not yet its meta item.
    await dynamo.client.send(
      new PutCommand({
        TableName: table,
        Item: {
          ...keys.executionResultPart('exe_torn', 0),
          writeId: 'another-write',
          data: Buffer.from('[{"a"'),
        },
      }),
    );
    await expect(store.getExecutionResults('exe_torn')).rejects.toThrow(
      'The stored results of execution exe_torn are incomplete.',
    );
  });

  it('replaces a result with a smaller one', async () => {
    await store.putExecutionResults('exe_again', largeResults());
    const small: StatementResult[] = [
      { title: 'One', status: 'succeeded', columns: [], rows: [{ a: 1 }], rowCount: 1, messages: [] },
    ];
    await store.putExecutionResults('exe_again', small);
    expect(await store.getExecutionResults('exe_again')).toEqual(small);
    await store.putExecutionResults('exe_empty', []);
    expect(await store.getExecutionResults('exe_empty')).toEqual([]);
  });

  it('keeps named runtime values', async () => {
    expect(await store.getRuntimeValue('scheduler-watermark')).toBeUndefined();
    await store.putRuntimeValue('scheduler-watermark', '2026-12-01T09:00:00.000Z');
    expect(await store.getRuntimeValue('scheduler-watermark')).toBe('2026-12-01T09:00:00.000Z');
    await store.putRuntimeValue('scheduler-watermark', '2026-12-01T09:05:00.000Z');
    expect(await store.getRuntimeValue('scheduler-watermark')).toBe('2026-12-01T09:05:00.000Z');
    expect(await store.getRuntimeValue('other')).toBeUndefined();
  });
});
