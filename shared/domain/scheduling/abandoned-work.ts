/**
 * Nothing stuck (decision 0056): work whose worker died — a Lambda that hit its 15 minutes or crashed,
 * a killed process — is ended with a reason instead of staying `running` for ever.
 *
 * - `sweepAbandonedWork`: every few minutes on AWS (a scheduled rule), for executions past their
 *   deadline plus a grace, cron runs past their limit, async jobs whose reservation stayed running.
 * - `endInterruptedExecutions`: at start-up of the embedded runtime, one process owns the data
 *   directory, so every execution still `running` was interrupted.
 * - `endFailedJob`: the Catch of the async-execution state machine.
 * Each reads by index (live-run markers, status indexes), never by scanning.
 */
import type { Execution } from '../model.ts';
import { settleHandedOffCronRun, settleStaleCronRuns } from './cron-runs.ts';
import type { SchedulingDeps } from './deps.ts';
import type { HandedOffCronRun } from './ports.ts';
import { failQueuedExecution } from './reservations.ts';
import { runLimitOf } from './scheduled-run-limit.ts';

/** How long past its deadline a run may still report back (a slow store write) before it is ended. */
export const abandonGraceMs = 5 * 60_000;

const interrupted =
  'Interrupted: the run did not finish (its worker stopped). It may have partly run; check before retrying.';

export interface SweepOutcome {
  executions: number;
  cronRuns: number;
  jobs: number;
}

export async function sweepAbandonedWork(
  deps: SchedulingDeps,
  graceMs = abandonGraceMs,
): Promise<SweepOutcome> {
  const now = deps.clock.now();
  const overdue = await deps.executions.listOverdueExecutions(
    new Date(now.getTime() - graceMs).toISOString(),
  );
  for (const execution of overdue) await endExecution(deps, execution, interrupted);
  const cronRuns = await settleStaleCronRuns(deps, now);
  let jobs = 0;
  for (const reservation of await deps.schedules.listReservationsByStatus('running')) {
    // A job or reservation that asked for its own limit (the long-job path on AWS, decisions 0075
    // and 0101) is given all of it; the others the runtime's job limit.
    const limit = runLimitOf(reservation.timeLimitMs, deps);
    if (now.getTime() - new Date(reservation.updatedAt).getTime() <= limit + graceMs) continue;
    if (await endReservation(deps, reservation.projectId, reservation.id, interrupted)) jobs++;
  }
  return { executions: overdue.length, cronRuns, jobs };
}

/** Embedded runtime start-up: nothing runs yet, so every `running` execution was interrupted. */
export async function endInterruptedExecutions(
  deps: Pick<SchedulingDeps, 'executions' | 'clock'>,
): Promise<number> {
  const left = await deps.executions.listOverdueExecutions('9999-12-31T23:59:59.999Z');
  const reason =
    'Interrupted: the runtime stopped during the run. It may have partly run; check before retrying.';
  for (const execution of left) await endExecution(deps, execution, reason);
  return left.length;
}

/** The async-execution state machine caught a failure of its task: the job ends as failed. */
export async function endFailedJob(
  deps: SchedulingDeps,
  job: {
    projectId: string;
    executionId: string;
    cause?: string;
    /** The machine's whole input: a cron run handed to the long path names it (decision 0101). */
    job?: { cronRun?: HandedOffCronRun };
  },
): Promise<void> {
  const reason = `The job's worker failed${job.cause ? ` (${job.cause.slice(0, 200)})` : ''}. It may have partly run.`;
  const cronRun = job.job?.cronRun;
  if (cronRun) await settleHandedOffCronRun(deps, { ...cronRun, executionId: job.executionId }, reason);
  const ended = await endReservation(deps, job.projectId, job.executionId, reason);
  if (!ended) {
    const execution = await deps.executions.getExecution(job.executionId);
    if (execution && (execution.status === 'running' || execution.status === 'queued'))
      await endExecution(deps, execution, reason);
  }
}

async function endExecution(
  deps: Pick<SchedulingDeps, 'executions' | 'clock'>,
  execution: Execution,
  reason: string,
): Promise<void> {
  const now = deps.clock.now();
  await deps.executions.putExecution({
    ...execution,
    status: 'failed',
    finishedAt: now.toISOString(),
    durationMs: now.getTime() - new Date(execution.startedAt).getTime(),
    // 'interrupted', as a batch row whose runner stopped is: the run may have had effects.
    error: { code: 'interrupted', message: reason },
  });
}

/** Ends a scheduled or running reservation (and its job's execution); false when it had ended. */
async function endReservation(
  deps: SchedulingDeps,
  projectId: string,
  reservationId: string,
  reason: string,
): Promise<boolean> {
  const reservation = await deps.schedules.getReservation(projectId, reservationId);
  if (!reservation || (reservation.status !== 'running' && reservation.status !== 'scheduled')) return false;
  const ended = await deps.schedules.updateReservation(
    { ...reservation, status: 'error', reason, updatedAt: deps.clock.now().toISOString() },
    reservation.status,
  );
  // Its execution too, a reservation's as a job's: it may have started before its worker stopped.
  if (ended && reservation.executionId) {
    const execution = await deps.executions.getExecution(reservation.executionId);
    if (execution && (execution.status === 'running' || execution.status === 'queued'))
      await failQueuedExecution(deps, reservation.executionId, { code: 'interrupted', message: reason });
  }
  return ended;
}
