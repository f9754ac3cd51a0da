/**
 * Start-up of scheduling in the embedded runtime: settle what a previous process left unfinished
 * (executions, runs, reservations, jobs, batches), record the scheduled times missed while nothing ran, then arm
 * every running job and waiting reservation. Nothing is silently dropped: a missed time becomes a
 * cancelled run with the reason (docs/scheduling.md, "Missed runs").
 */
import { recoverBatches } from '../shared/domain/batch/run-batch.ts';
import type { ExecutionStatus } from '../shared/domain/model.ts';
import { endInterruptedExecutions } from '../shared/domain/scheduling/abandoned-work.ts';
import { jobInput } from '../shared/domain/scheduling/async-executions.ts';
import { recordMissedRuns, recoverInterruptedRuns } from '../shared/domain/scheduling/cron-runs.ts';
import type { SchedulingDeps } from '../shared/domain/scheduling/deps.ts';
import type { Reservation } from '../shared/domain/scheduling/model.ts';
import { failQueuedExecution, finishedBy } from '../shared/domain/scheduling/reservations.ts';
import type { LocalScheduler } from './local-scheduler.ts';

export const watermarkName = 'scheduler.watermark';
const downReason = 'The runtime was not running at the scheduled time.';
const interruptedReason =
  'Interrupted: the runtime stopped during the run. It may have partly run; check before retrying.';
const notAcceptedReason = 'The runtime stopped before the job was accepted; it was not run.';
const finalStatuses = new Set<ExecutionStatus>(['succeeded', 'failed', 'timed_out']);

export async function startScheduling(deps: SchedulingDeps, scheduler: LocalScheduler) {
  const now = deps.clock.now();
  // Executions recorded as running before a crash (decision 0056) end as interrupted.
  await endInterruptedExecutions(deps);
  await recoverInterruptedRuns(deps);
  const watermark = await deps.schedules.getRuntimeValue(watermarkName);
  let missed = 0;
  for (const job of await deps.schedules.listAllCronJobs()) {
    if (job.state !== 'running') continue;
    if (watermark) {
      const from = new Date(Math.max(new Date(watermark).getTime(), new Date(job.updatedAt).getTime()));
      missed += await recordMissedRuns(deps, job, from, now, downReason);
    }
    await scheduler.putCronJob(job);
  }
  await settleReservations(deps, scheduler, now);
  await recoverBatches(deps);
  let lastWritten = 0;
  scheduler.start();
  return {
    missed,
    /** Persist the watermark at most once a second: a stale one only re-checks times that have runs already. */
    onWatermark(at: Date) {
      if (at.getTime() - lastWritten < 1000) return;
      lastWritten = at.getTime();
      deps.schedules.putRuntimeValue(watermarkName, at.toISOString()).catch(() => {});
    },
  };
}

async function settleReservations(deps: SchedulingDeps, scheduler: LocalScheduler, now: Date) {
  const updatedAt = now.toISOString();
  for (const reservation of await deps.schedules.listReservationsByStatus('running')) {
    const execution =
      reservation.executionId && (await deps.executions.getExecution(reservation.executionId));
    let finished: Reservation;
    if (execution && finalStatuses.has(execution.status)) {
      // The run ended and its record was kept; only the reservation's own last write was lost.
      finished = finishedBy(reservation, execution);
    } else {
      if (reservation.purpose === 'async_job' && execution)
        await failQueuedExecution(deps, execution.id, { code: 'interrupted', message: interruptedReason });
      finished = { ...reservation, status: 'error', reason: interruptedReason };
    }
    await deps.schedules.updateReservation({ ...finished, updatedAt }, 'running');
  }
  for (const reservation of await deps.schedules.listReservationsByStatus('scheduled')) {
    if (reservation.purpose === 'async_job') {
      // One process owns the store and the execution journal was replayed: a job with no execution
      // record is one the runtime stopped before accepting (it answered no 202).
      if (await deps.executions.getExecution(reservation.id))
        await deps.jobs.startExecution(jobInput(reservation));
      else
        await deps.schedules.updateReservation(
          { ...reservation, status: 'cancelled', reason: notAcceptedReason, updatedAt },
          'scheduled',
        );
    } else if (new Date(reservation.runAt).getTime() < now.getTime() - 60_000) {
      await deps.schedules.updateReservation(
        { ...reservation, status: 'cancelled', reason: downReason, updatedAt },
        'scheduled',
      );
    } else {
      await scheduler.putReservation(reservation);
    }
  }
}
