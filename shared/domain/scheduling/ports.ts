/**
 * Ports of scheduling: where its records live, what fires scheduled times, what runs long work.
 * On AWS: DynamoDB, EventBridge Scheduler, Step Functions. Embedded: the same table in dynalite,
 * an in-process croner scheduler and an in-process job runner (local/).
 */
import type { StatementResult } from '../model.ts';
import type {
  Batch,
  BatchChunk,
  CronJob,
  CronRun,
  CronRunStatus,
  Reservation,
  ReservationStatus,
} from './model.ts';

export interface CronRunQuery {
  status?: CronRunStatus;
  /** Inclusive ISO bounds on scheduledAt. */
  from?: string;
  to?: string;
  /** Newest first; at most this many (default 50, max 500). */
  limit?: number;
  /** Opaque: continue after the last run of the previous page. */
  cursor?: string;
}

export interface SchedulingStore {
  getCronJob(projectId: string, jobId: string): Promise<CronJob | undefined>;
  /** The jobs of a project (of one environment when given), by name. */
  listCronJobs(projectId: string, environmentId?: string): Promise<CronJob[]>;
  /** Every job of every project: the embedded scheduler loads them at start-up. */
  listAllCronJobs(): Promise<CronJob[]>;
  /** Saves only if the stored version is `expectedVersion` (0: must not exist yet); false on conflict. */
  saveCronJob(job: CronJob, expectedVersion: number): Promise<boolean>;
  /** Deletes the job and its run history; false when there was nothing to delete. */
  deleteCronJob(projectId: string, jobId: string): Promise<boolean>;

  /** Creates the run of one scheduled time; false when it exists (a duplicate delivery). */
  createCronRun(run: CronRun): Promise<boolean>;
  /** Replaces the run only if its stored status and attempt are the expected ones; false otherwise. */
  updateCronRun(run: CronRun, expected: { status: CronRunStatus; attempt: number }): Promise<boolean>;
  getCronRun(jobId: string, scheduledAt: string): Promise<CronRun | undefined>;
  /** Newest scheduled time first. */
  listCronRuns(jobId: string, query: CronRunQuery): Promise<{ runs: CronRun[]; cursor?: string }>;
  /** Runs of any job in this status (recovery at start-up: waiting and running ones). */
  listCronRunsByStatus(status: CronRunStatus): Promise<CronRun[]>;

  getReservation(projectId: string, reservationId: string): Promise<Reservation | undefined>;
  listReservations(projectId: string, environmentId?: string): Promise<Reservation[]>;
  /** Reservations of every project in this status (the embedded scheduler loads 'scheduled' ones). */
  listReservationsByStatus(status: ReservationStatus): Promise<Reservation[]>;
  createReservation(reservation: Reservation): Promise<void>;
  /** Replaces it only if the stored status is `expected`; false otherwise (exactly one run). */
  updateReservation(reservation: Reservation, expected: ReservationStatus): Promise<boolean>;

  /** Writes the batch and all its chunks (chunks before the batch record, so a batch is never partial). */
  createBatch(batch: Batch, chunks: BatchChunk[]): Promise<void>;
  getBatch(projectId: string, batchId: string): Promise<Batch | undefined>;
  listBatches(projectId: string, environmentId?: string): Promise<Batch[]>;
  /** Batches of every project in this status (recovery at start-up: 'running' ones). */
  listBatchesByStatus(status: Batch['status']): Promise<Batch[]>;
  putBatch(batch: Batch): Promise<void>;
  getBatchChunk(batchId: string, index: number): Promise<BatchChunk | undefined>;
  /** Every chunk, in index order (read consistently). */
  listBatchChunks(batchId: string): Promise<BatchChunk[]>;
  /** Saves only if the stored chunk's version is `expectedVersion`; false on conflict. */
  saveBatchChunk(chunk: BatchChunk, expectedVersion: number): Promise<boolean>;

  /** The rows of an asynchronous execution's result (split over several items when large). */
  putExecutionResults(executionId: string, results: StatementResult[]): Promise<void>;
  getExecutionResults(executionId: string): Promise<StatementResult[] | undefined>;

  /** Small named values of the runtime itself (e.g. the embedded scheduler's watermark). */
  getRuntimeValue(name: string): Promise<string | undefined>;
  putRuntimeValue(name: string, value: string): Promise<void>;
}

/** What fires scheduled times: EventBridge Scheduler on AWS, croner timers in the embedded runtime. */
export interface Scheduler {
  /** Creates or replaces the triggers of a job; a stopped job's triggers are disabled. */
  putCronJob(job: CronJob): Promise<void>;
  deleteCronJob(job: CronJob): Promise<void>;
  /** A one-time trigger at `runAt`, removed after it fires. */
  putReservation(reservation: Reservation): Promise<void>;
  deleteReservation(reservation: Reservation): Promise<void>;
}

/** A cron run's key, as a worker with a longer budget receives it. */
export interface HandedOffCronRun {
  jobId: string;
  scheduledAt: string;
}

/** What runs work longer than a request: Step Functions on AWS, an in-process runner locally. */
export interface JobRunner {
  /** Runs a queued asynchronous execution (idempotent per execution id). */
  startExecution(job: {
    projectId: string;
    environmentId: string;
    executionId: string;
    /** The job's own limit, if it asked for one: on AWS it chooses the worker (decision 0075). */
    timeLimitMs?: number;
    /**
     * A claimed cron run handed to a worker with a longer budget (decision 0101); `executionId` is
     * then the run's. Without it, `executionId` names the job's reservation (for an asynchronous
     * job, also its execution; for a reservation handed over, the reservation).
     */
    cronRun?: HandedOffCronRun;
  }): Promise<void>;
  /** Runs the waiting chunks of a batch with the batch's concurrency (idempotent per batch and attempt). */
  startBatch(batch: Batch, attempt: number): Promise<void>;
}
