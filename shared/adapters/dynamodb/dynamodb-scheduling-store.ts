/**
 * Scheduling records on the one DynamoDB table (docs/data-model.md, "Scheduling"). Like the main
 * store it uses only what DynamoDB and dynalite both support: every state change is a put
 * conditional on the stored status or version, never a transaction.
 *
 * Runs, reservations and batches carry gsi1 keys only while in a non-final status. A put replaces
 * the whole item, so writing a final status drops them: the status index stays as small as the
 * work that is still live, which is all recovery reads.
 */
import { randomUUID } from 'node:crypto';
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { DoguError } from '../../domain/errors.ts';
import type { StatementResult } from '../../domain/model.ts';
import { AlreadyExistsError } from '../../domain/ports.ts';
import type {
  Batch,
  BatchChunk,
  CronJob,
  CronRun,
  CronRunStatus,
  Reservation,
  ReservationStatus,
} from '../../domain/scheduling/model.ts';
import type { CronRunQuery, SchedulingStore } from '../../domain/scheduling/ports.ts';
import { type WriteRequests, writeInBatches } from './batch-write.ts';
import { type PutCondition, putIf } from './conditional-put.ts';
import { decodeSortKeyCursor, encodeSortKeyCursor } from './sort-key-cursor.ts';
import { keys, tableSchema } from './table-schema.ts';

type Key = { pk: string; sk: string };
type Item = Record<string, unknown>;

/** Statuses that keep an entry in the status index; the others are final. */
const liveCronRunStatuses: readonly CronRunStatus[] = ['waiting', 'running'];
const liveReservationStatuses: readonly ReservationStatus[] = ['scheduled', 'running'];
const liveBatchStatuses: readonly Batch['status'][] = ['waiting', 'running'];

export const defaultCronRunPageSize = 50;
export const maxCronRunPageSize = 500;
/** Bytes of result JSON per item: DynamoDB refuses items over 400 KB. */
export const executionResultPartBytes = 300_000;
/** Days a job's stored rows are kept (DynamoDB TTL), like large payloads in the payload bucket. */
export const resultRetentionDays = 90;

export interface SchedulingStoreOptions {
  /**
   * Items one DynamoDB Query page evaluates. Unset: DynamoDB's own 1 MB pages. Tests make it
   * small so that every listing has to follow several pages.
   */
  queryPageSize?: number;
}

export class DynamoDbSchedulingStore implements SchedulingStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly options: SchedulingStoreOptions = {},
  ) {}

  // Cron jobs
  getCronJob(projectId: string, jobId: string) {
    return this.get<CronJob>(keys.cronJob(projectId, jobId));
  }

  async listCronJobs(projectId: string, environmentId?: string): Promise<CronJob[]> {
    const jobs = await this.queryAll<CronJob>({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': `PROJECT#${projectId}`, ':prefix': 'CRONJOB#' },
    });
    return jobs
      .filter((job) => environmentId === undefined || job.environmentId === environmentId)
      .sort((a, b) => compareText(a.name, b.name) || compareText(a.id, b.id));
  }

  listAllCronJobs(): Promise<CronJob[]> {
    return this.queryAll<CronJob>({
      IndexName: tableSchema.indexes[0].name,
      KeyConditionExpression: 'gsi1pk = :all',
      ExpressionAttributeValues: { ':all': keys.cronJobIndex('', '').gsi1pk },
    });
  }

  saveCronJob(job: CronJob, expectedVersion: number): Promise<boolean> {
    return this.putIf(
      { ...keys.cronJob(job.projectId, job.id), ...keys.cronJobIndex(job.projectId, job.id) },
      'cronJob',
      job,
      expectedVersion === 0
        ? { ConditionExpression: 'attribute_not_exists(pk)' }
        : {
            ConditionExpression: '#version = :expected',
            ExpressionAttributeNames: { '#version': 'version' },
            ExpressionAttributeValues: { ':expected': expectedVersion },
          },
    );
  }

  async deleteCronJob(projectId: string, jobId: string): Promise<boolean> {
    // History first: a crash in between leaves the job, and deleting it again finishes. The other
    // order would leave runs no job or listing can reach.
    const runKeys = await this.queryAll<Key>(
      {
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `CRONRUN#${jobId}` },
        ProjectionExpression: 'pk, sk',
      },
      { keepKeys: true },
    );
    await this.writeMany(runKeys.map(({ pk, sk }) => ({ DeleteRequest: { Key: { pk, sk } } })));
    const { Attributes } = await this.client.send(
      new DeleteCommand({
        TableName: this.tableName,
        Key: keys.cronJob(projectId, jobId),
        ReturnValues: 'ALL_OLD',
      }),
    );
    return Attributes !== undefined || runKeys.length > 0;
  }

  // Cron runs
  async createCronRun(run: CronRun): Promise<boolean> {
    if (!isCanonicalTime(run.scheduledAt)) {
      // The sort key is compared as text: a differently written time would sort in the wrong place.
      throw new Error(`Cron run time '${run.scheduledAt}' is not written as Date.toISOString() writes it.`);
    }
    return this.putIf(cronRunKeys(run), 'cronRun', run, { ConditionExpression: 'attribute_not_exists(pk)' });
  }

  updateCronRun(run: CronRun, expected: { status: CronRunStatus; attempt: number }): Promise<boolean> {
    return this.putIf(cronRunKeys(run), 'cronRun', run, {
      ConditionExpression: '#status = :status AND #attempt = :attempt',
      ExpressionAttributeNames: { '#status': 'status', '#attempt': 'attempt' },
      ExpressionAttributeValues: { ':status': expected.status, ':attempt': expected.attempt },
    });
  }

  getCronRun(jobId: string, scheduledAt: string) {
    // Accept any spelling of the time (a path parameter may be written without milliseconds).
    const time = new Date(scheduledAt);
    const sortKey = Number.isNaN(time.getTime()) ? scheduledAt : time.toISOString();
    return this.get<CronRun>(keys.cronRun(jobId, sortKey));
  }

  async listCronRuns(jobId: string, query: CronRunQuery): Promise<{ runs: CronRun[]; cursor?: string }> {
    const asked = Number.isFinite(query.limit) ? Math.floor(query.limit!) : defaultCronRunPageSize;
    const limit = Math.min(Math.max(asked, 1), maxCronRunPageSize);
    const from = query.from === undefined ? undefined : canonicalTime(query.from, 'from');
    const to = query.to === undefined ? undefined : canonicalTime(query.to, 'to');
    // The cursor is the last run returned; the next page is what lies strictly before it. Narrowing
    // the key range, rather than passing an ExclusiveStartKey, means no cursor can make DynamoDB
    // refuse the query.
    const position = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    const range = sortKeyRange(from, to, position);
    if (!range) return { runs: [] };
    const filter = query.status !== undefined;
    const pageSize = this.options.queryPageSize;

    const runs: CronRun[] = [];
    const page = () => ({ runs, cursor: encodeCursor(runs.at(-1)!.scheduledAt) });
    let ExclusiveStartKey: Item | undefined;
    for (;;) {
      // DynamoDB applies Limit before the filter, so a filtered page may hold few or no matches.
      // Unfiltered, read two more than needed: the run at the cursor is skipped, and one more
      // tells whether another page exists.
      const wanted = limit - runs.length + 2;
      const result = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: range.expression,
          ...(filter ? { FilterExpression: '#status = :status' } : {}),
          ...(range.names || filter
            ? { ExpressionAttributeNames: { ...range.names, ...(filter ? { '#status': 'status' } : {}) } }
            : {}),
          ExpressionAttributeValues: {
            ':pk': `CRONRUN#${jobId}`,
            ...range.values,
            ...(filter ? { ':status': query.status } : {}),
          },
          ScanIndexForward: false,
          ConsistentRead: true,
          Limit: filter ? pageSize : Math.min(wanted, pageSize ?? wanted),
          ExclusiveStartKey,
        }),
      );
      for (const item of result.Items ?? []) {
        if (item.sk === position) continue;
        if (runs.length === limit) return page();
        runs.push(recordOf<CronRun>(item));
      }
      ExclusiveStartKey = result.LastEvaluatedKey;
      if (!ExclusiveStartKey) return { runs };
      if (runs.length === limit) return page();
    }
  }

  async listCronRunsByStatus(status: CronRunStatus): Promise<CronRun[]> {
    if (!liveCronRunStatuses.includes(status)) throw notIndexed('Cron runs', status, liveCronRunStatuses);
    return this.queryStatusIndex<CronRun>(keys.cronRunByStatus(status, '', '').gsi1pk);
  }

  // Reservations
  getReservation(projectId: string, reservationId: string) {
    return this.get<Reservation>(keys.reservation(projectId, reservationId));
  }

  async listReservations(projectId: string, environmentId?: string): Promise<Reservation[]> {
    const reservations = await this.queryAll<Reservation>({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': `PROJECT#${projectId}`, ':prefix': 'RESERVATION#' },
    });
    // Latest run time first, like the other scheduling lists.
    return reservations
      .filter((r) => environmentId === undefined || r.environmentId === environmentId)
      .sort((a, b) => compareText(b.runAt, a.runAt) || compareText(b.id, a.id));
  }

  async listReservationsByStatus(status: ReservationStatus): Promise<Reservation[]> {
    if (!liveReservationStatuses.includes(status))
      throw notIndexed('Reservations', status, liveReservationStatuses);
    // Ascending gsi1sk: the earliest run time first.
    return this.queryStatusIndex<Reservation>(keys.reservationByStatus(status, '', '').gsi1pk);
  }

  async createReservation(reservation: Reservation): Promise<void> {
    const created = await this.putIf(reservationKeys(reservation), 'reservation', reservation, {
      ConditionExpression: 'attribute_not_exists(pk)',
    });
    if (!created) throw new AlreadyExistsError(`reservation ${reservation.id}`);
  }

  updateReservation(reservation: Reservation, expected: ReservationStatus): Promise<boolean> {
    return this.putIf(reservationKeys(reservation), 'reservation', reservation, {
      ConditionExpression: '#status = :expected',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':expected': expected },
    });
  }

  // Batches
  async createBatch(batch: Batch, chunks: BatchChunk[]): Promise<void> {
    await this.writeMany(
      chunks.map((chunk) => ({
        PutRequest: {
          Item: { ...keys.batchChunk(chunk.batchId, chunk.index), type: 'batchChunk', ...chunk },
        },
      })),
    );
    await this.putBatch(batch);
  }

  getBatch(projectId: string, batchId: string) {
    return this.get<Batch>(keys.batch(projectId, batchId));
  }

  async listBatches(projectId: string, environmentId?: string): Promise<Batch[]> {
    const batches = await this.queryAll<Batch>({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': `PROJECT#${projectId}`, ':prefix': 'BATCH#' },
    });
    // Ids are UUIDv7: the greater id is the newer batch.
    return batches
      .filter((b) => environmentId === undefined || b.environmentId === environmentId)
      .sort((a, b) => compareText(b.id, a.id));
  }

  async listBatchesByStatus(status: Batch['status']): Promise<Batch[]> {
    if (!liveBatchStatuses.includes(status)) throw notIndexed('Batches', status, liveBatchStatuses);
    return this.queryStatusIndex<Batch>(keys.batchByStatus(status, '').gsi1pk);
  }

  async putBatch(batch: Batch): Promise<void> {
    const index = liveBatchStatuses.includes(batch.status) ? keys.batchByStatus(batch.status, batch.id) : {};
    await this.client.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...keys.batch(batch.projectId, batch.id), ...index, type: 'batch', ...batch },
      }),
    );
  }

  getBatchChunk(batchId: string, index: number) {
    return this.get<BatchChunk>(keys.batchChunk(batchId, index));
  }

  listBatchChunks(batchId: string): Promise<BatchChunk[]> {
    // Sort keys are zero-padded indexes: key order is index order.
    return this.queryAll<BatchChunk>({
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': `BATCHCHUNK#${batchId}` },
      ConsistentRead: true,
    });
  }

  saveBatchChunk(chunk: BatchChunk, expectedVersion: number): Promise<boolean> {
    return this.putIf(
      keys.batchChunk(chunk.batchId, chunk.index),
      'batchChunk',
      chunk,
      expectedVersion === 0
        ? { ConditionExpression: 'attribute_not_exists(pk)' }
        : {
            ConditionExpression: '#version = :expected',
            ExpressionAttributeNames: { '#version': 'version' },
            ExpressionAttributeValues: { ':expected': expectedVersion },
          },
    );
  }

  /**
   * Unconditional batch writes of runs and chunks, for a write-behind journal in front of this store
   * (the embedded runtime, where one process is the only writer and decides the conditions itself).
   */
  async putJournaled(records: { runs: CronRun[]; chunks: BatchChunk[] }): Promise<void> {
    await this.writeMany([
      ...records.runs.map((run) => ({
        PutRequest: { Item: { ...cronRunKeys(run), type: 'cronRun', ...run } },
      })),
      ...records.chunks.map((chunk) => ({
        PutRequest: {
          Item: { ...keys.batchChunk(chunk.batchId, chunk.index), type: 'batchChunk', ...chunk },
        },
      })),
    ]);
  }

  // Execution results
  async putExecutionResults(executionId: string, results: StatementResult[]): Promise<void> {
    const bytes = Buffer.from(JSON.stringify(results), 'utf8');
    // Binary parts, so a cut inside a multi-byte character does no harm. Every part names the
    // write it belongs to: a reader never mixes the parts of two writes of the same result.
    const writeId = randomUUID();
    // A job's rows are kept as long as large payloads are (the payload bucket's lifecycle): 90 days.
    const expiresAt = Math.floor(Date.now() / 1000) + resultRetentionDays * 86_400;
    const partCount = Math.max(1, Math.ceil(bytes.length / executionResultPartBytes));
    const parts: WriteRequests = [];
    for (let part = 0; part < partCount; part++) {
      const data = bytes.subarray(part * executionResultPartBytes, (part + 1) * executionResultPartBytes);
      parts.push({
        PutRequest: {
          Item: {
            ...keys.executionResultPart(executionId, part),
            type: 'executionResultPart',
            writeId,
            [tableSchema.timeToLiveAttribute]: expiresAt,
            data: new Uint8Array(data),
          },
        },
      });
    }
    await this.writeMany(parts);
    await this.client.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          ...keys.executionResultMeta(executionId),
          type: 'executionResultMeta',
          writeId,
          partCount,
          [tableSchema.timeToLiveAttribute]: expiresAt,
        },
      }),
    );
  }

  async getExecutionResults(executionId: string): Promise<StatementResult[] | undefined> {
    // A concurrent rewrite can replace parts between reading the meta item and the parts: read again.
    for (let attempt = 0; attempt < 3; attempt++) {
      const { Item: meta } = await this.client.send(
        new GetCommand({
          TableName: this.tableName,
          Key: keys.executionResultMeta(executionId),
          ConsistentRead: true,
        }),
      );
      if (!meta) return undefined;
      const partCount = meta.partCount as number;
      const parts = await this.queryAll<{ writeId: string; data: Uint8Array }>(
        {
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :first AND :last',
          ExpressionAttributeValues: {
            ':pk': keys.executionResultMeta(executionId).pk,
            ':first': keys.executionResultPart(executionId, 0).sk,
            ':last': keys.executionResultPart(executionId, partCount - 1).sk,
          },
          ConsistentRead: true,
        },
        { keepKeys: false },
      );
      if (parts.length === partCount && parts.every((part) => part.writeId === meta.writeId)) {
        return JSON.parse(
          Buffer.concat(parts.map((part) => part.data)).toString('utf8'),
        ) as StatementResult[];
      }
    }
    throw new Error(`The stored results of execution ${executionId} are incomplete.`);
  }

  // Runtime values
  async getRuntimeValue(name: string): Promise<string | undefined> {
    return (await this.get<{ value: string }>(keys.runtimeValue(name)))?.value;
  }

  async putRuntimeValue(name: string, value: string): Promise<void> {
    await this.client.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...keys.runtimeValue(name), type: 'runtimeValue', name, value },
      }),
    );
  }

  // Helpers
  /** Reads consistently: these records go through read-modify-write cycles that must start from the latest write. */
  private async get<T>(key: Key): Promise<T | undefined> {
    const { Item } = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: key, ConsistentRead: true }),
    );
    return Item ? recordOf<T>(Item) : undefined;
  }

  /** Every item a query matches, across all pages, in key order. */
  private async queryAll<T>(
    input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey' | 'Limit'>,
    { keepKeys = false }: { keepKeys?: boolean } = {},
  ): Promise<T[]> {
    const records: T[] = [];
    let ExclusiveStartKey: Item | undefined;
    do {
      const page = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          ...input,
          Limit: this.options.queryPageSize,
          ExclusiveStartKey,
        }),
      );
      for (const item of page.Items ?? []) records.push(keepKeys ? (item as T) : recordOf<T>(item));
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
    return records;
  }

  /** The records a sparse status index holds under one status (eventually consistent, like every gsi1 read). */
  private queryStatusIndex<T>(partition: string): Promise<T[]> {
    return this.queryAll<T>({
      IndexName: tableSchema.indexes[0].name,
      KeyConditionExpression: 'gsi1pk = :status',
      ExpressionAttributeValues: { ':status': partition },
    });
  }

  private putIf(key: Item, type: string, record: object, condition: PutCondition): Promise<boolean> {
    return putIf(this.client, this.tableName, { ...key, type, ...record }, condition);
  }

  private writeMany(requests: WriteRequests): Promise<void> {
    return writeInBatches(this.client, this.tableName, requests);
  }
}

const cronRunKeys = (run: CronRun) => ({
  ...keys.cronRun(run.jobId, run.scheduledAt),
  ...(liveCronRunStatuses.includes(run.status)
    ? keys.cronRunByStatus(run.status, run.scheduledAt, run.jobId)
    : {}),
});

const reservationKeys = (reservation: Reservation) => ({
  ...keys.reservation(reservation.projectId, reservation.id),
  ...(liveReservationStatuses.includes(reservation.status)
    ? keys.reservationByStatus(reservation.status, reservation.runAt, reservation.id)
    : {}),
});

/** The record without the table's key attributes. */
function recordOf<T>(item: Item): T {
  const { pk: _pk, sk: _sk, gsi1pk: _g1, gsi1sk: _g2, type: _type, ...record } = item;
  return record as T;
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const notIndexed = (what: string, status: string, live: readonly string[]) =>
  new Error(`${what} are indexed by status only while ${live.join(' or ')}, not '${status}'.`);

const isCanonicalTime = (value: string) => {
  const time = new Date(value);
  return !Number.isNaN(time.getTime()) && time.toISOString() === value;
};

function canonicalTime(value: string, parameter: string): string {
  const time = new Date(value);
  if (Number.isNaN(time.getTime()))
    throw new DoguError(
      'bad_request',
      `'${parameter}' must be an ISO 8601 time, such as 2026-01-31T09:00:00Z.`,
      {
        extra: { parameter },
      },
    );
  return time.toISOString();
}

/**
 * The key condition for inclusive `from`/`to` and, with a cursor, no later than the cursor's run
 * (which the caller skips). Undefined when nothing can match.
 */
function sortKeyRange(from: string | undefined, to: string | undefined, position: string | undefined) {
  let upper = to;
  if (position !== undefined && (upper === undefined || position < upper)) upper = position;
  if (from !== undefined && upper !== undefined && from > upper) return undefined;
  if (from !== undefined && position !== undefined && from === position) return undefined;
  const names = { '#sk': 'sk' };
  if (from !== undefined && upper !== undefined)
    return {
      expression: 'pk = :pk AND #sk BETWEEN :from AND :upper',
      names,
      values: { ':from': from, ':upper': upper },
    };
  if (from !== undefined)
    return { expression: 'pk = :pk AND #sk >= :from', names, values: { ':from': from } };
  if (upper !== undefined)
    return { expression: 'pk = :pk AND #sk <= :upper', names, values: { ':upper': upper } };
  return { expression: 'pk = :pk', names: undefined, values: {} };
}

/** A run's cursor is its `scheduledAt`, the sort key of runs under their job. */
const encodeCursor = encodeSortKeyCursor;
const decodeCursor = (cursor: string) =>
  decodeSortKeyCursor(cursor, { maxLength: 200, isValidSortKey: isCanonicalTime });
