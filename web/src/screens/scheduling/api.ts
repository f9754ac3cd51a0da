/**
 * Shapes and paths of the scheduling API (cron jobs, reservations, batches, async jobs).
 * Mirrors shared/domain/scheduling/model.ts so the bundle never imports server code.
 */
import { pathOf } from '../../api/client.ts';

export type Weekday = 'SUN' | 'MON' | 'TUE' | 'WED' | 'THU' | 'FRI' | 'SAT';
export const weekdayOrder: Weekday[] = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'];

export type ScheduleDays =
  | { by: 'weekday'; weekdays: Weekday[] }
  | { by: 'dayOfMonth'; days: (number | 'L')[] };
export type ScheduleTimes =
  | { kind: 'fixed'; times: string[] }
  | { kind: 'hourly'; minutes: number[] }
  | { kind: 'interval'; every: number; unit: 'minutes' | 'hours' };
export type Schedule =
  | { kind: 'form'; days: ScheduleDays; times: ScheduleTimes }
  | { kind: 'cron'; expression: string };

export interface Executor {
  kind: 'user' | 'service_account';
  id: string;
  email?: string;
}

export interface CronJob {
  id: string;
  name: string;
  schedule: Schedule;
  timeZone: string;
  actionId: string;
  arguments: Record<string, unknown>;
  executor: Executor;
  setBy: { id: string; email: string };
  state: 'running' | 'stopped';
  overlap: 'allow' | 'skip';
  createdAt: string;
  updatedAt: string;
  version: number;
  expressions: string[];
  nextRuns: string[];
}

export interface CronJobInput {
  name: string;
  schedule: Schedule;
  timeZone?: string;
  actionId: string;
  arguments?: Record<string, unknown>;
  executor?: { kind: 'user' | 'service_account'; id: string };
  state?: 'running' | 'stopped';
  overlap?: 'allow' | 'skip';
  version?: number;
}

export type CronRunStatus = 'waiting' | 'running' | 'completed' | 'cancelled' | 'error';
export const cronRunStatuses: CronRunStatus[] = ['waiting', 'running', 'completed', 'cancelled', 'error'];

export interface CronRun {
  jobId: string;
  scheduledAt: string;
  attempt: number;
  status: CronRunStatus;
  reason?: string;
  executionId?: string;
  startedAt?: string;
  finishedAt?: string;
  /** A "run now" run, by this member. */
  manual?: { by: { id: string; email: string } };
}

export interface SchedulePreview {
  expressions: string[];
  nextRuns: string[];
}

export interface Reservation {
  id: string;
  actionId: string;
  arguments: Record<string, unknown>;
  runAt: string;
  timeZone: string;
  executor: Executor;
  createdBy: { id: string; email: string };
  status: 'scheduled' | 'running' | 'completed' | 'error' | 'cancelled';
  reason?: string;
  executionId?: string;
  createdAt: string;
}

export interface BatchProgress {
  total: number;
  waiting: number;
  running: number;
  success: number;
  failure: number;
}

export interface Batch {
  id: string;
  actionId: string;
  status: 'waiting' | 'running' | 'finished' | 'cancelled';
  attempt: number;
  rowCount: number;
  /** A CSV file's rows are numbered as in the file: its first data row is row 2. */
  source?: 'csv' | 'rows';
  createdAt: string;
  finishedAt?: string;
  createdBy: { id: string; email: string };
}

export interface BatchRow {
  index: number;
  arguments: Record<string, unknown>;
  status: 'waiting' | 'running' | 'success' | 'failure';
  executionId?: string;
  error?: { code: string; message: string };
  attempt: number;
}

export interface BatchDetail {
  batch: Batch;
  progress: BatchProgress;
  rows: BatchRow[];
}

const environmentBase = (projectId: string, environmentId: string) =>
  pathOf`/api/v1/projects/${projectId}/environments/${environmentId}`;

export const schedulingPaths = {
  cronJobs: (p: string, e: string) => `${environmentBase(p, e)}/cron-jobs`,
  cronPreview: (p: string, e: string) => `${environmentBase(p, e)}/cron-jobs/preview`,
  cronJob: (p: string, e: string, jobId: string) => `${environmentBase(p, e)}${pathOf`/cron-jobs/${jobId}`}`,
  cronRuns: (p: string, e: string, jobId: string) =>
    `${environmentBase(p, e)}${pathOf`/cron-jobs/${jobId}/runs`}`,
  cronRetry: (p: string, e: string, jobId: string, scheduledAt: string) =>
    `${environmentBase(p, e)}${pathOf`/cron-jobs/${jobId}/runs/${scheduledAt}/retry`}`,
  reservations: (p: string, e: string) => `${environmentBase(p, e)}/reservations`,
  reservationCancel: (p: string, e: string, id: string) =>
    `${environmentBase(p, e)}${pathOf`/reservations/${id}/cancel`}`,
  batchTemplate: (p: string, e: string, actionId: string) =>
    `${environmentBase(p, e)}${pathOf`/actions/${actionId}/batch-template`}`,
  batches: (p: string, e: string, actionId: string) =>
    `${environmentBase(p, e)}${pathOf`/actions/${actionId}/batches`}`,
  batchList: (p: string, e: string) => `${environmentBase(p, e)}/batches`,
  batch: (p: string, e: string, batchId: string) => `${environmentBase(p, e)}${pathOf`/batches/${batchId}`}`,
  batchRetry: (p: string, e: string, batchId: string) =>
    `${environmentBase(p, e)}${pathOf`/batches/${batchId}/retry`}`,
  batchResults: (p: string, e: string, batchId: string) =>
    `${environmentBase(p, e)}${pathOf`/batches/${batchId}/results`}`,
  execution: (p: string, e: string, executionId: string) =>
    pathOf`/public/v1/projects/${p}/environments/${e}/executions/${executionId}`,
};
