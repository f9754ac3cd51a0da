/**
 * The limit of a scheduled run (decision 0101). A cron run or reservation is a job (spec 8: up to 30
 * minutes): it gets its own `timeLimitMs` when it set one, otherwise the runtime's job limit. A worker
 * whose budget is smaller (a Lambda on AWS: 14.5 minutes) hands such a run to the job runner's long
 * path instead of cutting it short.
 */
import type { SchedulingDeps } from './deps.ts';

export const runLimitOf = (own: number | undefined, deps: Pick<SchedulingDeps, 'maxJobExecutionMs'>) =>
  own ?? deps.maxJobExecutionMs;

/** Whether this worker can give a run all of its limit. */
export const worksHere = (limitMs: number, deps: Pick<SchedulingDeps, 'maxJobExecutionMs'>) =>
  limitMs <= deps.maxJobExecutionMs;
