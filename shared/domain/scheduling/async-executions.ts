/**
 * "Run as a job" (spec 8: up to 30 minutes). The request is authorised and its arguments checked at
 * once, the execution is recorded as `queued` and answered with 202; the job runner (Step Functions
 * on AWS, in-process locally) runs it. The job is kept as a reservation record due now, keyed by the
 * execution id, so it shares the exactly-once claim and the recovery after a restart.
 * Execution statuses: queued → running → succeeded | failed | timed_out.
 */
import { resolveExecutableAction } from '../authorize.ts';
import { refuseUnpublishedSecretReads } from '../draft-secrets.ts';
import { DoguError } from '../errors.ts';
import { type ExecuteActionRequest, masterDataOf } from '../execute-action.ts';
import type { Execution } from '../model.ts';
import { bindArguments } from '../parameters.ts';
import type { SchedulingDeps } from './deps.ts';
import type { Reservation } from './model.ts';
import { runReservation } from './reservations.ts';

/** Arguments wait in the store until the job runs: keep them well inside one item. */
const maxQueuedArgumentBytes = 256 * 1024;

export async function startAsyncExecution(
  deps: SchedulingDeps,
  request: Omit<ExecuteActionRequest, 'via'>,
): Promise<Execution> {
  const { principal } = request;
  const { action, environment } = await resolveExecutableAction(deps.store, principal, request);
  await refuseUnpublishedSecretReads(deps, action, environment.id);
  if (action.review?.required) {
    throw new DoguError(
      'state_conflict',
      `Action '${action.id}' requires a review; request it with a normal execution, then it runs on approval.`,
    );
  }
  bindArguments(action.parameters, request.arguments, {
    system: {},
    masterData: await masterDataOf(deps, action),
  });
  if (Buffer.byteLength(JSON.stringify(request.arguments)) > maxQueuedArgumentBytes) {
    throw new DoguError('payload_too_large', 'Arguments of a job may be at most 256 KB.');
  }
  const now = deps.clock.now().toISOString();
  const executionId = deps.ids.next('exe');
  const execution: Execution = {
    id: executionId,
    projectId: action.projectId,
    environmentId: environment.id,
    actionId: action.id,
    actionVersion: action.version,
    status: 'queued',
    principal: { kind: principal.kind, id: principal.id, email: principal.email },
    via: 'async_job',
    arguments: {},
    startedAt: now,
    statements: [],
  };
  const job: Reservation = {
    id: executionId,
    purpose: 'async_job',
    projectId: action.projectId,
    environmentId: environment.id,
    actionId: action.id,
    arguments: request.arguments,
    runAt: now,
    timeZone: 'UTC',
    executor: { kind: principal.kind, id: principal.id, email: principal.email },
    createdBy: { id: principal.id, email: principal.email },
    status: 'scheduled',
    executionId,
    createdAt: now,
    updatedAt: now,
  };
  await deps.store.putExecution(execution);
  await deps.schedules.createReservation(job);
  await deps.jobs.startExecution({ projectId: action.projectId, environmentId: environment.id, executionId });
  return execution;
}

/** Runs a queued job (idempotent: a second start of the same execution does nothing). */
export async function runQueuedExecution(
  deps: SchedulingDeps,
  job: { projectId: string; executionId: string },
): Promise<void> {
  await runReservation(deps, { projectId: job.projectId, reservationId: job.executionId });
}
