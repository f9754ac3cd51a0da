/**
 * Scheduling records: cron jobs and their runs, one-time reservations, batches and their rows.
 * Status transitions are documented in docs/scheduling.md and docs/batch.md.
 */
import type { Schedule } from './schedule.ts';

/** Who a scheduled run executes as (spec 2.8): a user, or a service account of the project. */
export interface Executor {
  kind: 'user' | 'service_account';
  id: string;
  /** For lists and history: the user's or the account's e-mail address. */
  email: string;
}

export type CronJobState = 'running' | 'stopped';
/** allow: a due run starts even while the previous one runs; skip: it is recorded as cancelled. */
export type OverlapPolicy = 'allow' | 'skip';

export interface CronJob {
  id: string;
  projectId: string;
  environmentId: string;
  name: string;
  schedule: Schedule;
  /** IANA zone the schedule is read in; Asia/Tokyo unless set (an extension to spec 2.8). */
  timeZone: string;
  actionId: string;
  arguments: Record<string, unknown>;
  executor: Executor;
  /** The member who last set the job (list column "setter"). */
  setBy: { id: string; email: string };
  state: CronJobState;
  overlap: OverlapPolicy;
  /** When the job last stopped: on resume, the due times since then are recorded as cancelled. */
  stoppedAt?: string;
  /**
   * The limit of each scheduled run, when the job set one (1–1800 s, decision 0101); otherwise the
   * runtime's job limit. Above a Lambda's budget, a run goes to the long-job path on AWS.
   */
  timeLimitMs?: number;
  createdAt: string;
  updatedAt: string;
  /** Optimistic concurrency: saves are conditional on the stored version. */
  version: number;
}

export type CronRunStatus = 'waiting' | 'running' | 'completed' | 'cancelled' | 'error';

/** One scheduled time of one job: keyed by (jobId, scheduledAt), so a duplicate delivery does nothing. */
export interface CronRun {
  jobId: string;
  projectId: string;
  environmentId: string;
  /** ISO 8601 UTC, whole minutes. */
  scheduledAt: string;
  /** 1 for the scheduled attempt, +1 per manual retry. */
  attempt: number;
  /**
   * Set on a "run now" run: started by hand at `scheduledAt` (not a whole minute, so it never
   * takes the key of a scheduled time), by this member.
   */
  manual?: { by: { id: string; email: string } };
  status: CronRunStatus;
  /** Why it was cancelled or failed (missed while stopped, runtime down, overlap, interrupted…). */
  reason?: string;
  executionId?: string;
  /** The limit a delivered run was given (the sweeper waits that long, plus a margin). */
  timeLimitMs?: number;
  startedAt?: string;
  finishedAt?: string;
  /** Earlier attempts of the same scheduled time, oldest first. */
  previousAttempts?: {
    attempt: number;
    status: CronRunStatus;
    executionId?: string;
    reason?: string;
    startedAt?: string;
    finishedAt?: string;
  }[];
  updatedAt: string;
}

export type ReservationStatus = 'scheduled' | 'running' | 'completed' | 'error' | 'cancelled';

/**
 * A one-time scheduled execution of an action (spec 1, "reservation"). An asynchronous job ("run as a
 * job") is the same record with `purpose: 'async_job'` and `runAt` = now: it shares the exactly-once
 * claim and the recovery after a restart; lists of reservations leave such jobs out.
 */
export interface Reservation {
  id: string;
  purpose?: 'reservation' | 'async_job';
  projectId: string;
  environmentId: string;
  actionId: string;
  arguments: Record<string, unknown>;
  /** ISO 8601 UTC. */
  runAt: string;
  timeZone: string;
  executor: Executor;
  createdBy: { id: string; email: string };
  status: ReservationStatus;
  reason?: string;
  executionId?: string;
  /**
   * The job's or reservation's own time limit, when it asked for one (spec 8: at most 30 minutes). It
   * chooses the worker on AWS (above Lambda's budget: CodeBuild, decisions 0075 and 0101) and caps
   * the run.
   */
  timeLimitMs?: number;
  createdAt: string;
  updatedAt: string;
}

export type BatchStatus = 'waiting' | 'running' | 'finished' | 'cancelled';
export type BatchRowStatus = 'waiting' | 'running' | 'success' | 'failure';

export interface Batch {
  id: string;
  projectId: string;
  environmentId: string;
  actionId: string;
  executor: Executor;
  createdBy: { id: string; email: string };
  status: BatchStatus;
  /** 1 for the first run, +1 per retry of failed rows (names the Step Functions execution). */
  attempt: number;
  rowCount: number;
  /** Where the rows came from: a CSV file's rows are numbered as in the file (its row 1 is the header). */
  source?: 'csv' | 'rows';
  /** Rows per chunk: the unit that is claimed, run and written together. */
  chunkSize: number;
  /**
   * Each row's time limit (the creating runtime's limit of a normal execution). The chunk size is
   * chosen so a chunk's rows fit one job's budget: on AWS no chunk Lambda can pass 15 minutes.
   */
  rowTimeLimitMs?: number;
  chunkCount: number;
  concurrency: number;
  createdAt: string;
  updatedAt: string;
  finishedAt?: string;
  /** Counted when the batch finishes; while it runs, progress is counted from its chunks. */
  progress?: BatchProgress;
}

export interface BatchProgress {
  total: number;
  waiting: number;
  running: number;
  success: number;
  failure: number;
}

export interface BatchRow {
  index: number;
  arguments: Record<string, unknown>;
  status: BatchRowStatus;
  /** Assigned when the chunk is claimed, before the row runs: recovery looks the execution up. */
  executionId?: string;
  error?: { code: string; message: string };
  attempt: number;
}

export type BatchChunkStatus = 'waiting' | 'running' | 'done';

/** Rows are stored and claimed in chunks: one conditional write claims a chunk, so no row runs twice. */
export interface BatchChunk {
  batchId: string;
  index: number;
  status: BatchChunkStatus;
  /** Who claimed it (runner id) and when: a stale claim after a crash is recovered. */
  claimedBy?: string;
  claimedAt?: string;
  rows: BatchRow[];
  version: number;
}
