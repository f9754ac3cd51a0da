/**
 * Runs of cron jobs. Deliveries are at least once (EventBridge Scheduler, or the embedded scheduler
 * after a restart), so a run is keyed by (job, scheduled time) and created by a conditional write: a
 * duplicate delivery does nothing. Status transitions (docs/scheduling.md):
 *   running → completed | error                (a delivered scheduled time: created running)
 *   waiting → running → completed | error      (a manual run or a retry)
 *   cancelled                                  (missed: stopped, runtime down, overlap skipped)
 *   completed | error | cancelled → waiting    (manual retry: a new attempt of the same time)
 */
import { dateProblemText, parseIsoDateTime } from '../dates.ts';
import { DoguError, notFound } from '../errors.ts';
import { executeAction } from '../execute-action.ts';
import { authorize } from '../manage/access.ts';
import type { Principal } from '../model.ts';
import type { NotificationEvent } from '../notifications/model.ts';
import { auditScheduledExecution } from './audit-run.ts';
import type { SchedulingDeps } from './deps.ts';
import { principalOfExecutor } from './executor.ts';
import { type JobScope, loadJob } from './job-scope.ts';
import type { CronJob, CronRun, CronRunStatus } from './model.ts';
import type { CronRunQuery, HandedOffCronRun } from './ports.ts';
import { eventBridgeExpressions, runTimesBetween } from './schedule-expression.ts';
import { runLimitOf, worksHere } from './scheduled-run-limit.ts';

/** At most this many missed times are recorded per job and gap (as Kubernetes caps missed schedules at 100). */
export const maxMissedRecorded = 100;

const finalStatuses: readonly CronRunStatus[] = ['completed', 'cancelled', 'error'];

/** Scheduled times are whole minutes (EventBridge fires within the minute). */
export function normaliseScheduledTime(value: string): string {
  const parsed = parseIsoDateTime(value);
  if (typeof parsed === 'string') {
    throw new DoguError(
      'bad_request',
      `'${value}' is not a scheduled time: ${parsed === 'format' ? 'write it as 2026-11-22T02:30:00Z' : dateProblemText[parsed]}.`,
    );
  }
  const time = new Date(parsed.time);
  time.setUTCSeconds(0, 0);
  return time.toISOString();
}

/** Delivers one scheduled time of a job: creates its run (once) and runs it. Undefined for a duplicate. */
export async function deliverCronRun(
  deps: SchedulingDeps,
  delivery: { projectId: string; jobId: string; scheduledAt: string },
): Promise<CronRun | undefined> {
  const job = await deps.schedules.getCronJob(delivery.projectId, delivery.jobId);
  if (!job) return undefined; // deleted after the trigger fired
  const scheduledAt = normaliseScheduledTime(delivery.scheduledAt);
  const now = deps.clock.now().toISOString();
  const base = {
    jobId: job.id,
    projectId: job.projectId,
    environmentId: job.environmentId,
    scheduledAt,
    attempt: 1,
  };
  let cancelReason: string | undefined;
  if (job.state === 'stopped') cancelReason = 'The job was stopped at its scheduled time.';
  else if (job.overlap === 'skip' && (await previousStillRunning(deps, job.id))) {
    cancelReason = 'Skipped: the previous run was still running (overlap policy: skip).';
  }
  if (cancelReason) {
    const run: CronRun = { ...base, status: 'cancelled', reason: cancelReason, updatedAt: now };
    return (await deps.schedules.createCronRun(run)) ? run : undefined;
  }
  // The run is created already running, when it starts (decision 0064): the conditional create is the
  // claim that makes the time run once, and a crash after it leaves a run settled as interrupted on
  // restart, never a second run. One journaled write between the due time and the start, not two.
  // A delivered run is a job (decision 0101): it carries its limit, which the sweeper waits for.
  const limit = runLimitOf(job.timeLimitMs, deps);
  const running = { ...startedRun(deps, { ...base, status: 'waiting', updatedAt: now }), timeLimitMs: limit };
  if (!(await deps.schedules.createCronRun(running))) return undefined;
  if (!worksHere(limit, deps)) {
    // More than this worker has (a Lambda on AWS): the claimed run goes to the long-job path, whose
    // worker runs it (runHandedOffCronRun). Its start is idempotent by the execution id.
    await deps.jobs.startExecution({
      projectId: job.projectId,
      environmentId: job.environmentId,
      executionId: running.executionId,
      timeLimitMs: limit,
      cronRun: { jobId: job.id, scheduledAt },
    });
    return running;
  }
  return executeRun(deps, job, running, limit);
}

/**
 * A worker with a longer budget runs a cron run handed to it (decision 0101): once, only while the
 * run is still the claimed one and its execution has not begun.
 */
export async function runHandedOffCronRun(
  deps: SchedulingDeps,
  handed: HandedOffCronRun & { projectId: string; executionId: string },
): Promise<CronRun | undefined> {
  const run = await deps.schedules.getCronRun(handed.jobId, handed.scheduledAt);
  if (run?.status !== 'running' || run.executionId !== handed.executionId) return undefined;
  if (await deps.executions.getExecution(handed.executionId)) return undefined;
  const job = await deps.schedules.getCronJob(handed.projectId, handed.jobId);
  if (!job) return undefined;
  const limit = Math.min(run.timeLimitMs ?? deps.maxJobExecutionMs, deps.maxJobExecutionMs);
  return executeRun(deps, job, { ...run, executionId: handed.executionId }, limit);
}

function startedRun(deps: SchedulingDeps, waiting: CronRun): CronRun & { executionId: string } {
  const startedAt = deps.clock.now().toISOString();
  return {
    ...waiting,
    status: 'running',
    executionId: deps.ids.next('exe'),
    startedAt,
    updatedAt: startedAt,
  };
}

/**
 * True when an earlier run of the job is still running. A run "running" for longer than any run may
 * last (its time limit plus a margin) lost its worker — a Lambda that timed out, a killed process —
 * and is settled as interrupted here, so it cannot make `skip` skip every later time for ever.
 */
async function previousStillRunning(deps: SchedulingDeps, jobId: string): Promise<boolean> {
  const { runs } = await deps.schedules.listCronRuns(jobId, { status: 'running', limit: 20 });
  const now = deps.clock.now();
  let running = false;
  for (const run of runs) {
    if (!isStale(deps, run, now)) running = true;
    else await settleStale(deps, run, now);
  }
  return running;
}

/** The sweeper (abandoned-work.ts): every run left `running` past its limit and margin is settled. */
export async function settleStaleCronRuns(deps: SchedulingDeps, now: Date): Promise<number> {
  let settled = 0;
  for (const run of await deps.schedules.listCronRunsByStatus('running')) {
    if (isStale(deps, run, now) && (await settleStale(deps, run, now))) settled++;
  }
  return settled;
}

/** A delivered run has its job limit (decision 0101); a run started by hand, the synchronous one. */
const isStale = (deps: SchedulingDeps, run: CronRun, now: Date) =>
  run.status === 'running' &&
  now.getTime() - new Date(run.startedAt ?? run.updatedAt).getTime() >
    (run.timeLimitMs ?? deps.maxExecutionMs) + staleRunMarginMs;

async function settleStale(deps: SchedulingDeps, run: CronRun, now: Date): Promise<CronRun | undefined> {
  const settled: CronRun = {
    ...run,
    status: 'error',
    reason:
      'Interrupted: the run did not finish within its time limit (its worker stopped). It may have partly run.',
    finishedAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  if (!(await deps.schedules.updateCronRun(settled, { status: 'running', attempt: run.attempt })))
    return undefined;
  await notifyInterrupted(deps, settled);
  return settled;
}

/** The long-job path failed for a handed-off cron run: it ends `error` with the reason, once. */
export async function settleHandedOffCronRun(
  deps: SchedulingDeps,
  handed: HandedOffCronRun & { executionId: string },
  reason: string,
): Promise<CronRun | undefined> {
  const run = await deps.schedules.getCronRun(handed.jobId, handed.scheduledAt);
  if (run?.status !== 'running' || run.executionId !== handed.executionId) return undefined;
  const now = deps.clock.now().toISOString();
  const settled: CronRun = { ...run, status: 'error', reason, finishedAt: now, updatedAt: now };
  if (!(await deps.schedules.updateCronRun(settled, { status: 'running', attempt: run.attempt })))
    return undefined;
  await notifyInterrupted(deps, settled);
  return settled;
}

/** A run whose worker stopped failed too: its job's failure rules hear of it. */
async function notifyInterrupted(deps: SchedulingDeps, run: CronRun) {
  if (!deps.notifications) return;
  const job = await deps.schedules.getCronJob(run.projectId, run.jobId).catch(() => undefined);
  if (job) await deps.notifications.notify(cronRunEvent(job, run, false, run.reason));
}

/** How long past its time limit a run may still report back (a slow store write, a retried Lambda). */
const staleRunMarginMs = 5 * 60_000;

/** waiting → running → completed | error. Only the caller that moves it out of waiting runs it. */
async function runAttempt(deps: SchedulingDeps, job: CronJob, waiting: CronRun): Promise<CronRun> {
  // Run by hand (now or a retry) in the request: the synchronous limit, not the delivered one's.
  const { timeLimitMs: _delivered, ...attempt } = waiting;
  const running = startedRun(deps, attempt);
  if (!(await deps.schedules.updateCronRun(running, { status: 'waiting', attempt: waiting.attempt }))) {
    return (await deps.schedules.getCronRun(job.id, waiting.scheduledAt)) ?? waiting;
  }
  return executeRun(deps, job, running);
}

/** Runs a claimed (running) run's action and records how it ended. */
async function executeRun(
  deps: SchedulingDeps,
  job: CronJob,
  running: CronRun & { executionId: string },
  /** A delivered run's job limit; a run started by hand or retried has the synchronous one. */
  maxExecutionMs?: number,
): Promise<CronRun> {
  const { executionId } = running;
  // Runs due at the same instant claim their start before any of them takes the CPU to execute.
  await new Promise((resolve) => setImmediate(resolve));
  let outcome: Pick<CronRun, 'status' | 'reason'>;
  let ran = false;
  let timedOut = false;
  let shareableReason: string | undefined;
  try {
    const principal = await principalOfExecutor(deps, job.projectId, job.executor);
    const result = await executeAction(deps, {
      principal,
      projectId: job.projectId,
      environmentId: job.environmentId,
      actionId: job.actionId,
      arguments: job.arguments,
      via: 'cron',
      executionId,
      ...(maxExecutionMs !== undefined ? { maxExecutionMs } : {}),
      origin: { cronJobId: job.id, scheduledAt: running.scheduledAt },
    });
    ran = result.kind === 'executed';
    timedOut = result.kind === 'executed' && result.execution.status === 'timed_out';
    if (result.kind === 'executed') shareableReason = result.shareableError?.message;
    if (result.kind === 'executed') await auditScheduledExecution(deps, principal, result.execution);
    if (result.kind === 'executed' && result.execution.status === 'succeeded')
      outcome = { status: 'completed' };
    else if (result.kind === 'executed') {
      outcome = { status: 'error', reason: result.execution.error?.message ?? result.execution.status };
    } else
      outcome = { status: 'error', reason: `The action now requires review (request ${result.review.id}).` };
  } catch (error) {
    outcome = {
      status: 'error',
      reason: error instanceof DoguError ? error.message : 'Unexpected error while running.',
    };
  }
  const { executionId: _unused, ...withoutExecution } = running;
  const finished: CronRun = {
    ...(ran ? running : withoutExecution),
    ...outcome,
    finishedAt: deps.clock.now().toISOString(),
    updatedAt: deps.clock.now().toISOString(),
  };
  await deps.schedules.updateCronRun(finished, { status: 'running', attempt: running.attempt });
  await deps.notifications?.notify(
    cronRunEvent(job, finished, timedOut, ran ? shareableReason : finished.reason),
  );
  return finished;
}

/** `reason` is the run's own, or (when the action ran) its error without argument or secret values. */
function cronRunEvent(
  job: CronJob,
  run: CronRun,
  timedOut: boolean,
  reason: string | undefined,
): NotificationEvent {
  return {
    projectId: job.projectId,
    environmentId: job.environmentId,
    subject: { kind: 'cron_job', id: job.id, name: job.name, actionId: job.actionId },
    outcome: run.status === 'completed' ? 'succeeded' : timedOut ? 'timed_out' : 'failed',
    occurredAt: run.finishedAt ?? run.updatedAt,
    cronRun: {
      scheduledAt: run.scheduledAt,
      attempt: run.attempt,
      status: run.status,
      ...(reason ? { reason } : {}),
    },
    ...(run.executionId ? { execution: { id: run.executionId, status: run.status, via: 'cron' } } : {}),
  };
}

/** Records every scheduled time of `job` in (from, to] that has no run as cancelled, with the reason. */
export async function recordMissedRuns(
  deps: SchedulingDeps,
  job: CronJob,
  from: Date,
  to: Date,
  reason: string,
) {
  const times = runTimesBetween(
    eventBridgeExpressions(job.schedule),
    job.timeZone,
    from,
    to,
    maxMissedRecorded,
  );
  const now = deps.clock.now().toISOString();
  let recorded = 0;
  for (const time of times) {
    const run: CronRun = {
      jobId: job.id,
      projectId: job.projectId,
      environmentId: job.environmentId,
      scheduledAt: time.toISOString(),
      attempt: 1,
      status: 'cancelled',
      reason,
      updatedAt: now,
    };
    if (await deps.schedules.createCronRun(run)) recorded++;
  }
  return recorded;
}

/**
 * After a restart of the embedded runtime: a run left `running` was interrupted (it may have partly
 * run, so it is not run again: retry it by hand); a run left `waiting` never started.
 */
export async function recoverInterruptedRuns(deps: SchedulingDeps): Promise<number> {
  let recovered = 0;
  for (const status of ['running', 'waiting'] as const) {
    for (const run of await deps.schedules.listCronRunsByStatus(status)) {
      const next: CronRun = {
        ...run,
        status: status === 'running' ? 'error' : 'cancelled',
        reason:
          status === 'running'
            ? 'Interrupted: the runtime stopped during the run. It may have partly run; check before retrying.'
            : 'The runtime stopped before the run started.',
        updatedAt: deps.clock.now().toISOString(),
      };
      if (await deps.schedules.updateCronRun(next, { status, attempt: run.attempt })) {
        recovered++;
        if (status === 'running') await notifyInterrupted(deps, next);
      }
    }
  }
  return recovered;
}

export async function listCronRuns(
  deps: SchedulingDeps,
  principal: Principal,
  scope: JobScope,
  jobId: string,
  query: CronRunQuery,
) {
  await authorize(deps.store, principal, scope.projectId, 'view');
  await loadJob(deps, scope, jobId);
  return deps.schedules.listCronRuns(jobId, query);
}

/** Spec 2.8: a past execution at a given scheduled time can be retried by hand: a new attempt. */
export async function retryCronRun(
  deps: SchedulingDeps,
  principal: Principal,
  scope: JobScope,
  jobId: string,
  scheduledAt: string,
): Promise<CronRun> {
  await authorize(deps.store, principal, scope.projectId, 'manage_cron_jobs');
  const job = await loadJob(deps, scope, jobId);
  // A manual run's time keeps its seconds; a scheduled time is read as its whole minute.
  const exact = new Date(scheduledAt);
  const manual = Number.isNaN(exact.getTime())
    ? undefined
    : await deps.schedules.getCronRun(jobId, exact.toISOString());
  const time = manual ? manual.scheduledAt : normaliseScheduledTime(scheduledAt);
  const found = manual ?? (await deps.schedules.getCronRun(jobId, time));
  if (!found) throw notFound('Run', `${jobId} at ${time}`);
  // A run whose worker died long ago can be retried too: it is settled as interrupted first.
  const now = deps.clock.now();
  const run = (isStale(deps, found, now) && (await settleStale(deps, found, now))) || found;
  if (!finalStatuses.includes(run.status)) {
    throw new DoguError(
      'state_conflict',
      `The run at ${time} is ${run.status}; retry it once it has finished.`,
    );
  }
  const { reason: _r, executionId, startedAt, finishedAt, ...rest } = run;
  const previous = {
    attempt: run.attempt,
    status: run.status,
    ...(executionId ? { executionId } : {}),
    ...(run.reason ? { reason: run.reason } : {}),
    ...(startedAt ? { startedAt } : {}),
    ...(finishedAt ? { finishedAt } : {}),
  };
  const waiting: CronRun = {
    ...rest,
    attempt: run.attempt + 1,
    status: 'waiting',
    previousAttempts: [...(run.previousAttempts ?? []), previous],
    updatedAt: deps.clock.now().toISOString(),
  };
  if (!(await deps.schedules.updateCronRun(waiting, { status: run.status, attempt: run.attempt }))) {
    throw new DoguError('state_conflict', `The run at ${time} is being retried by someone else.`);
  }
  return runAttempt(deps, job, waiting);
}

/**
 * "Run now": one run of the job at this moment, recorded in its history as a manual run (by whom).
 * It runs whether the job is running or stopped and whatever its overlap policy: a person asked.
 */
export async function runCronJobNow(
  deps: SchedulingDeps,
  principal: Principal,
  scope: JobScope,
  jobId: string,
): Promise<CronRun> {
  await authorize(deps.store, principal, scope.projectId, 'manage_cron_jobs');
  const job = await loadJob(deps, scope, jobId);
  const now = deps.clock.now();
  // Never a whole minute, so a manual run cannot take the key of a scheduled time.
  const at = new Date(now.getTime() + (now.getTime() % 60_000 === 0 ? 1 : 0)).toISOString();
  const run: CronRun = {
    jobId: job.id,
    projectId: job.projectId,
    environmentId: job.environmentId,
    scheduledAt: at,
    attempt: 1,
    status: 'waiting',
    manual: { by: { id: principal.id, email: principal.email } },
    updatedAt: now.toISOString(),
  };
  if (!(await deps.schedules.createCronRun(run))) {
    throw new DoguError(
      'state_conflict',
      'A manual run started at the same moment; look at the run history.',
    );
  }
  return runAttempt(deps, job, run);
}
