/**
 * Reservations: one-time scheduled executions (spec 1). The run claims the reservation with a
 * conditional write from `scheduled`, so a repeated trigger runs it once. Transitions:
 *   scheduled → running → completed | error;  scheduled → cancelled (by a member, or missed while down)
 */
import * as z from 'zod';
import { resolveExecutableAction } from '../authorize.ts';
import { parseIsoDateTime } from '../dates.ts';
import { resourceIdSchema } from '../definitions/data-source.ts';
import { DoguError, type ErrorCode, notFound } from '../errors.ts';
import { executeAction } from '../execute-action.ts';
import { authorize, requireEnvironment } from '../manage/access.ts';
import type { Execution, Principal, StatementResult } from '../model.ts';
import { bindArguments } from '../parameters.ts';
import { requireRight } from '../rights.ts';
import { masterDataOf } from '../run-preparation.ts';
import { auditScheduledExecution } from './audit-run.ts';
import { scheduledArgumentsSchema, scheduledTimeLimitSchema } from './cron-job-input.ts';
import type { SchedulingDeps } from './deps.ts';
import { principalOfExecutor } from './executor.ts';
import type { JobScope } from './job-scope.ts';
import type { Reservation } from './model.ts';
import { defaultTimeZone } from './schedule.ts';
import { assertTimeZone } from './schedule-expression.ts';
import { runLimitOf, worksHere } from './scheduled-run-limit.ts';
import { instantInZone } from './zoned-time.ts';

/** A reservation is at most a year ahead (EventBridge keeps one-time schedules; a year keeps them meaningful). */
const maxAheadMs = 366 * 24 * 3600_000;

export const reservationInputSchema = z
  .object({
    actionId: resourceIdSchema,
    arguments: scheduledArgumentsSchema.default({}),
    /** An instant with its offset (`…+09:00`, `…Z`), or a local date-time read in `timeZone`. */
    runAt: z
      .string()
      .max(40)
      .describe(
        "An instant with its offset ('2026-12-01T06:41:00+09:00'), or a local date-time ('2026-12-01T06:41') read in timeZone, which it then requires (decision 0085).",
      ),
    timeZone: z.string().min(1).max(64).optional(),
    /** The run's own limit (decision 0101); unset: the runtime's job limit. */
    timeLimitSeconds: scheduledTimeLimitSchema.optional(),
  })
  .strict();
export type ReservationInput = z.infer<typeof reservationInputSchema>;

export async function createReservation(
  deps: SchedulingDeps,
  principal: Principal,
  scope: JobScope,
  input: ReservationInput,
): Promise<Reservation> {
  const { action } = await resolveExecutableAction(deps.store, principal, {
    ...scope,
    actionId: input.actionId,
  });
  const timeZone = input.timeZone ?? defaultTimeZone;
  assertTimeZone(timeZone);
  const now = deps.clock.now();
  const runAt = new Date(instantOfRunAt(input.runAt, input.timeZone));
  runAt.setUTCSeconds(0, 0);
  if (runAt.getTime() <= now.getTime() || runAt.getTime() > now.getTime() + maxAheadMs) {
    throw new DoguError(
      'invalid_definition',
      'runAt must be a whole minute in the future, at most a year ahead.',
      {
        errors: [
          {
            pointer: '/runAt',
            detail: `'${input.runAt}' is ${runAt <= now ? 'not in the future' : 'too far ahead'}`,
          },
        ],
      },
    );
  }
  if (action.review?.required) {
    throw new DoguError(
      'invalid_definition',
      `Action '${action.id}' requires a review; reserve it after approval.`,
      {
        errors: [{ pointer: '/actionId', detail: 'the action requires review' }],
      },
    );
  }
  bindArguments(action.parameters, input.arguments, {
    system: {},
    masterData: await masterDataOf(deps, action),
  });
  const reservation: Reservation = {
    id: deps.ids.next('rsv'),
    purpose: 'reservation',
    projectId: scope.projectId,
    environmentId: scope.environmentId,
    actionId: action.id,
    arguments: input.arguments,
    runAt: runAt.toISOString(),
    timeZone,
    executor: { kind: principal.kind, id: principal.id, email: principal.email },
    createdBy: { id: principal.id, email: principal.email },
    status: 'scheduled',
    ...(input.timeLimitSeconds !== undefined ? { timeLimitMs: input.timeLimitSeconds * 1000 } : {}),
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  await deps.schedules.createReservation(reservation);
  await deps.scheduler.putReservation(reservation);
  return reservation;
}

const runAtProblem = (detail: string) =>
  new DoguError('invalid_definition', `runAt ${detail}`, { errors: [{ pointer: '/runAt', detail }] });

/**
 * Decision 0085: `runAt` is an instant (with `Z` or an offset), or a local date-time together with
 * `timeZone`, read in that zone; never a bare local time read in the server's zone. A local time the
 * clocks skip is refused; one that occurs twice is its first occurrence (as cron jobs run once).
 */
function instantOfRunAt(text: string, timeZone: string | undefined): number {
  const parsed = parseIsoDateTime(text);
  if (typeof parsed === 'string' || !parsed.hasTime) {
    throw runAtProblem(
      parsed === 'no-such-date' || parsed === 'out-of-range'
        ? `'${text}' names no such date or time`
        : `must be a local date-time such as '2026-12-01T06:41' with timeZone, or an instant with its offset such as '2026-12-01T06:41:00+09:00'`,
    );
  }
  if (parsed.hasZone) return parsed.time;
  if (timeZone === undefined) {
    throw runAtProblem(
      `'${text}' has no offset, so it needs timeZone (an IANA name such as 'Asia/Tokyo'); it is never read in the server's zone`,
    );
  }
  const resolved = instantInZone(parsed.time, timeZone);
  if (resolved.kind === 'nonexistent') {
    throw runAtProblem(
      `'${text}' does not exist in ${timeZone}: the clocks skip it (daylight saving time begins); choose a time after the change, or send an instant with its offset`,
    );
  }
  return resolved.time;
}

export async function listReservations(deps: SchedulingDeps, principal: Principal, scope: JobScope) {
  await authorize(deps.store, principal, scope.projectId, 'view');
  await requireEnvironment(deps.store, scope.projectId, scope.environmentId);
  return (await deps.schedules.listReservations(scope.projectId, scope.environmentId)).filter(
    (r) => r.purpose !== 'async_job',
  );
}

export async function getReservation(
  deps: SchedulingDeps,
  principal: Principal,
  scope: JobScope,
  id: string,
) {
  await authorize(deps.store, principal, scope.projectId, 'view');
  return loadReservation(deps, scope, id);
}

async function loadReservation(deps: SchedulingDeps, scope: JobScope, id: string) {
  const reservation = await deps.schedules.getReservation(scope.projectId, id);
  if (
    !reservation ||
    reservation.environmentId !== scope.environmentId ||
    reservation.purpose === 'async_job'
  ) {
    throw notFound('Reservation', id);
  }
  return reservation;
}

/** Only while scheduled; by its creator or by a member who manages cron jobs. */
export async function cancelReservation(
  deps: SchedulingDeps,
  principal: Principal,
  scope: JobScope,
  id: string,
) {
  // Membership first: an outsider learns nothing about the reservation.
  const membership = await authorize(deps.store, principal, scope.projectId, 'execute');
  const reservation = await loadReservation(deps, scope, id);
  if (reservation.createdBy.id !== principal.id)
    requireRight(membership, scope.projectId, 'manage_cron_jobs');
  const cancelled: Reservation = {
    ...reservation,
    status: 'cancelled',
    reason: `Cancelled by ${principal.email}.`,
    updatedAt: deps.clock.now().toISOString(),
  };
  if (
    reservation.status !== 'scheduled' ||
    !(await deps.schedules.updateReservation(cancelled, 'scheduled'))
  ) {
    const now = (await deps.schedules.getReservation(scope.projectId, id)) ?? reservation;
    throw new DoguError(
      'state_conflict',
      `Reservation '${id}' is ${now.status}; only a scheduled one can be cancelled.`,
    );
  }
  await deps.scheduler.deleteReservation(reservation);
  return cancelled;
}

/** The trigger of a reservation (or an asynchronous job) fired: claim it once, run it, record the outcome. */
export async function runReservation(
  deps: SchedulingDeps,
  target: { projectId: string; reservationId: string },
): Promise<Reservation | undefined> {
  const reservation = await deps.schedules.getReservation(target.projectId, target.reservationId);
  if (reservation?.status !== 'scheduled') return undefined;
  const async = reservation.purpose === 'async_job';
  const limit = runLimitOf(reservation.timeLimitMs, deps);
  // A reservation that asked for more than this worker has (a Lambda, on AWS) goes, unclaimed, to
  // the job runner's long path, whose worker claims and runs it (decision 0101). An asynchronous
  // job was already routed by its limit when it started.
  if (!async && !worksHere(limit, deps)) {
    await deps.jobs.startExecution({
      projectId: reservation.projectId,
      environmentId: reservation.environmentId,
      executionId: reservation.id,
      timeLimitMs: limit,
    });
    return undefined;
  }
  const executionId = reservation.executionId ?? deps.ids.next('exe');
  const running: Reservation = {
    ...reservation,
    status: 'running',
    executionId,
    updatedAt: deps.clock.now().toISOString(),
  };
  if (!(await deps.schedules.updateReservation(running, 'scheduled'))) return undefined;
  let finished: Reservation;
  try {
    const principal = await principalOfExecutor(deps, reservation.projectId, reservation.executor);
    if (async) {
      await deps.executions.putExecution({
        ...(await deps.executions.getExecution(executionId))!,
        status: 'running',
      });
    }
    const outcome = await executeAction(deps, {
      principal,
      projectId: reservation.projectId,
      environmentId: reservation.environmentId,
      actionId: reservation.actionId,
      arguments: reservation.arguments,
      via: async ? 'async_job' : 'reservation',
      executionId,
      // A scheduled run is a job (decision 0101): its own limit, never more than this worker can
      // give (a Lambda: 14.5 minutes).
      maxExecutionMs: Math.min(limit, deps.maxJobExecutionMs),
      ...(async
        ? {
            keepResults: (id: string, results: StatementResult[]) =>
              deps.schedules.putExecutionResults(id, results),
          }
        : { origin: { reservationId: reservation.id } }),
    });
    if (outcome.kind !== 'executed') throw new DoguError('state_conflict', 'The action now requires review.');
    await auditScheduledExecution(deps, principal, outcome.execution);
    finished = finishedBy(running, outcome.execution);
  } catch (error) {
    const reason = error instanceof DoguError ? error.message : 'Unexpected error while running.';
    if (async)
      await failQueuedExecution(deps, executionId, {
        code: error instanceof DoguError ? error.code : 'internal_error',
        message: reason,
      });
    finished = { ...running, status: 'error', reason };
  }
  finished.updatedAt = deps.clock.now().toISOString();
  await deps.schedules.updateReservation(finished, 'running');
  return finished;
}

/** The reservation once its execution has ended: completed when the run succeeded. */
export function finishedBy(running: Reservation, execution: Execution): Reservation {
  const ok = execution.status === 'succeeded';
  return {
    ...running,
    status: ok ? 'completed' : 'error',
    ...(ok ? {} : { reason: execution.error?.message ?? execution.status }),
  };
}

/**
 * An asynchronous job that could not run, or whose worker stopped, still ends in a final execution
 * status with the reason. A job interrupted mid-run carries `interrupted`, as an interrupted
 * synchronous run or batch row does: it may have had effects.
 */
export async function failQueuedExecution(
  deps: SchedulingDeps,
  executionId: string,
  error: { code: 'interrupted' | ErrorCode; message: string },
) {
  const execution = await deps.executions.getExecution(executionId);
  if (!execution) return;
  const now = deps.clock.now().toISOString();
  await deps.executions.putExecution({ ...execution, status: 'failed', finishedAt: now, error });
}
