/**
 * Cron runs and batch chunks in the embedded runtime go through a write-behind journal (as
 * executions do, decision 0007): the conditional writes that make runs and rows happen once are
 * decided in memory — one process owns the data directory — and each change is in the journal file
 * before the caller goes on, then moved to the store in batches. Two dynalite writes per batch row and
 * three per scheduled run become one shared file append. Lists flush first, so they see everything.
 * Only the embedded runtime may use this: it relies on being the only process writing the table.
 */
import type { DynamoDbSchedulingStore } from '../shared/adapters/dynamodb/dynamodb-scheduling-store.ts';
import type { StatementResult } from '../shared/domain/model.ts';
import type {
  Batch,
  BatchChunk,
  CronJob,
  CronRun,
  CronRunStatus,
  Reservation,
  ReservationStatus,
} from '../shared/domain/scheduling/model.ts';
import type { CronRunQuery, SchedulingStore } from '../shared/domain/scheduling/ports.ts';
import { WriteBehindJournal } from './write-behind-journal.ts';

type Entry = { id: string; run: CronRun } | { id: string; chunk: BatchChunk };

const runId = (jobId: string, scheduledAt: string) => `run:${jobId}:${new Date(scheduledAt).toISOString()}`;
const chunkId = (batchId: string, index: number) => `chunk:${batchId}:${index}`;

/** Known records are kept for conditional checks; this bounds memory (the store has the rest). */
const maxKnown = 200_000;

export class JournaledSchedulingStore implements SchedulingStore {
  /** The latest state of every run and chunk this process read or wrote: authoritative while it runs. */
  private readonly known = new Map<string, Entry>();
  /** Conditional writes of one record run one after another. */
  private readonly locks = new Map<string, Promise<unknown>>();
  /**
   * Runs are created when their time has come, never before. So a run scheduled after this instant was
   * created by this process, if at all, and is in `known`: no store read is needed to create it.
   * Moved forward whenever `known` is cleared.
   */
  private certainAfter = Date.now();
  /** Jobs change only through this store in this process: a write-through cache spares a read per run. */
  private readonly jobs = new Map<string, CronJob | undefined>();

  private constructor(
    private readonly inner: DynamoDbSchedulingStore,
    private readonly journal: WriteBehindJournal<Entry>,
  ) {}

  static async open(inner: DynamoDbSchedulingStore, path: string): Promise<JournaledSchedulingStore> {
    const journal = await WriteBehindJournal.open<Entry>(
      path,
      (entries) => {
        // A replayed journal holds every version of a record; a batch write takes each key once.
        const latest = [...new Map(entries.map((e) => [e.id, e])).values()];
        return inner.putJournaled({
          runs: latest.flatMap((e) => ('run' in e ? [e.run] : [])),
          chunks: latest.flatMap((e) => ('chunk' in e ? [e.chunk] : [])),
        });
      },
      'scheduling',
    );
    return new JournaledSchedulingStore(inner, journal);
  }

  flush(): Promise<void> {
    return this.journal.flush();
  }

  close(): Promise<void> {
    return this.journal.close();
  }

  private async exclusive<T>(id: string, work: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(id) ?? Promise.resolve();
    const next = previous.then(work, work);
    this.locks.set(id, next);
    try {
      return await next;
    } finally {
      if (this.locks.get(id) === next) this.locks.delete(id);
    }
  }

  private remember(entry: Entry) {
    if (this.known.size >= maxKnown && !this.journal.pending.size) {
      this.known.clear();
      this.certainAfter = Date.now();
    }
    this.known.delete(entry.id);
    this.known.set(entry.id, entry);
  }

  private async write(entry: Entry) {
    this.remember(entry);
    await this.journal.append(entry);
  }

  // Cron runs: decided here, journaled, stored behind.
  private async currentRun(jobId: string, scheduledAt: string): Promise<CronRun | undefined> {
    const known = this.known.get(runId(jobId, scheduledAt));
    if (known && 'run' in known) return known.run;
    if (new Date(scheduledAt).getTime() > this.certainAfter) return undefined;
    const stored = await this.inner.getCronRun(jobId, scheduledAt);
    if (stored) this.remember({ id: runId(jobId, scheduledAt), run: stored });
    return stored;
  }

  createCronRun(run: CronRun): Promise<boolean> {
    const id = runId(run.jobId, run.scheduledAt);
    return this.exclusive(id, async () => {
      if (await this.currentRun(run.jobId, run.scheduledAt)) return false;
      await this.write({ id, run: structuredClone(run) });
      return true;
    });
  }

  updateCronRun(run: CronRun, expected: { status: CronRunStatus; attempt: number }): Promise<boolean> {
    const id = runId(run.jobId, run.scheduledAt);
    return this.exclusive(id, async () => {
      const current = await this.currentRun(run.jobId, run.scheduledAt);
      if (!current || current.status !== expected.status || current.attempt !== expected.attempt)
        return false;
      await this.write({ id, run: structuredClone(run) });
      return true;
    });
  }

  async getCronRun(jobId: string, scheduledAt: string): Promise<CronRun | undefined> {
    const run = await this.currentRun(jobId, scheduledAt);
    return run && structuredClone(run);
  }

  async listCronRuns(jobId: string, query: CronRunQuery) {
    await this.flush();
    return this.inner.listCronRuns(jobId, query);
  }

  async listCronRunsByStatus(status: CronRunStatus) {
    await this.flush();
    return this.inner.listCronRunsByStatus(status);
  }

  // Batch chunks: the same, keyed by batch and index.
  private async currentChunk(batchId: string, index: number): Promise<BatchChunk | undefined> {
    const known = this.known.get(chunkId(batchId, index));
    if (known && 'chunk' in known) return known.chunk;
    const stored = await this.inner.getBatchChunk(batchId, index);
    if (stored) this.remember({ id: chunkId(batchId, index), chunk: stored });
    return stored;
  }

  async getBatchChunk(batchId: string, index: number) {
    const chunk = await this.currentChunk(batchId, index);
    return chunk && structuredClone(chunk);
  }

  saveBatchChunk(chunk: BatchChunk, expectedVersion: number): Promise<boolean> {
    const id = chunkId(chunk.batchId, chunk.index);
    return this.exclusive(id, async () => {
      const current = await this.currentChunk(chunk.batchId, chunk.index);
      if (expectedVersion === 0 ? current !== undefined : current?.version !== expectedVersion) return false;
      await this.write({ id, chunk: structuredClone(chunk) });
      return true;
    });
  }

  async listBatchChunks(batchId: string) {
    await this.flush();
    return this.inner.listBatchChunks(batchId);
  }

  async createBatch(batch: Batch, chunks: BatchChunk[]) {
    // A new batch's chunks go straight to the store: they are written once, in bulk.
    await this.inner.createBatch(batch, chunks);
  }

  async deleteCronJob(projectId: string, jobId: string) {
    await this.flush();
    this.jobs.delete(`${projectId}/${jobId}`);
    for (const id of [...this.known.keys()]) if (id.startsWith(`run:${jobId}:`)) this.known.delete(id);
    return this.inner.deleteCronJob(projectId, jobId);
  }

  // Everything else is rare enough to go straight to the store.
  async getCronJob(projectId: string, jobId: string) {
    const key = `${projectId}/${jobId}`;
    if (!this.jobs.has(key)) this.jobs.set(key, await this.inner.getCronJob(projectId, jobId));
    const job = this.jobs.get(key);
    return job && structuredClone(job);
  }
  listCronJobs(projectId: string, environmentId?: string) {
    return this.inner.listCronJobs(projectId, environmentId);
  }
  listAllCronJobs() {
    return this.inner.listAllCronJobs();
  }
  async saveCronJob(job: CronJob, expectedVersion: number) {
    const key = `${job.projectId}/${job.id}`;
    const saved = await this.inner.saveCronJob(job, expectedVersion);
    if (saved) this.jobs.set(key, structuredClone(job));
    else this.jobs.delete(key);
    return saved;
  }
  getReservation(projectId: string, reservationId: string) {
    return this.inner.getReservation(projectId, reservationId);
  }
  listReservations(projectId: string, environmentId?: string) {
    return this.inner.listReservations(projectId, environmentId);
  }
  listReservationsByStatus(status: ReservationStatus) {
    return this.inner.listReservationsByStatus(status);
  }
  createReservation(reservation: Reservation) {
    return this.inner.createReservation(reservation);
  }
  updateReservation(reservation: Reservation, expected: ReservationStatus) {
    return this.inner.updateReservation(reservation, expected);
  }
  getBatch(projectId: string, batchId: string) {
    return this.inner.getBatch(projectId, batchId);
  }
  listBatches(projectId: string, environmentId?: string) {
    return this.inner.listBatches(projectId, environmentId);
  }
  listBatchesByStatus(status: Batch['status']) {
    return this.inner.listBatchesByStatus(status);
  }
  putBatch(batch: Batch) {
    return this.inner.putBatch(batch);
  }
  putExecutionResults(executionId: string, results: StatementResult[]) {
    return this.inner.putExecutionResults(executionId, results);
  }
  getExecutionResults(executionId: string) {
    return this.inner.getExecutionResults(executionId);
  }
  getRuntimeValue(name: string) {
    return this.inner.getRuntimeValue(name);
  }
  putRuntimeValue(name: string, value: string) {
    return this.inner.putRuntimeValue(name, value);
  }
}
