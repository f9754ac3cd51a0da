/**
 * "Run as a job" (spec 8: up to 30 minutes). The request is authorised and its arguments checked at
 * once, the execution is recorded as `queued` and answered with 202; the job runner (Step Functions
 * on AWS, in-process locally) runs it. The job is kept as a reservation record due now, keyed by the
 * execution id, so it shares the exactly-once claim and the recovery after a restart.
 * Execution statuses: queued → running → succeeded | failed | timed_out.
 */

import { resolveExecutableAction } from '../authorize.ts';
import { requireConfirmation } from '../confirmation.ts';
import { refuseUnpublishedSecretReads } from '../draft-secrets.ts';
import { DoguError } from '../errors.ts';
import type { ExecuteActionRequest } from '../execute-action.ts';
import { maxRecordedArgumentBytes, utf8Bytes } from '../execution-payloads.ts';
import type { Execution } from '../model.ts';
import { bindArguments } from '../parameters.ts';
import { masterDataOf } from '../run-preparation.ts';
import type { SchedulingDeps } from './deps.ts';
import type { Reservation } from './model.ts';
import { runReservation } from './reservations.ts';

/** Arguments wait in the store until the job runs: keep them well inside one item. */
const maxQueuedArgumentBytes = 256 * 1024;
/** Spec 8: a job runs at most 30 minutes; a job may ask for less, or for more than a Lambda gives. */
export const maxJobTimeLimitMs = 30 * 60_000;

export interface AsyncExecutionRequest extends Omit<ExecuteActionRequest, 'via'> {
  /** The job's own limit (at most `maxJobTimeLimitMs`); otherwise the runtime's default job limit. */
  timeLimitMs?: number;
  /** Started from the console: a data-changing action needs the person's confirmation (action-effect.ts). */
  confirmation?: { confirmed: boolean };
}

export async function startAsyncExecution(
  deps: SchedulingDeps,
  request: AsyncExecutionRequest,
): Promise<Execution> {
  const { principal } = request;
  const { action, environment } = await resolveExecutableAction(deps.store, principal, request);
  await refuseUnpublishedSecretReads(deps, action, environment.id);
  if (request.confirmation) {
    requireConfirmation(action, environment.id, request.arguments, request.confirmation.confirmed);
  }
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
  if (
    request.timeLimitMs !== undefined &&
    !(
      Number.isInteger(request.timeLimitMs) &&
      request.timeLimitMs >= 1000 &&
      request.timeLimitMs <= maxJobTimeLimitMs
    )
  ) {
    throw new DoguError('bad_request', "A job's time limit is 1 to 1800 seconds.", {
      errors: [
        {
          pointer: '#/timeLimitSeconds',
          detail: 'must be an integer from 1 to 1800',
          ja: '1 から 1800 までの整数（秒）で指定してください',
        },
      ],
    });
  }
  if (Buffer.byteLength(JSON.stringify(request.arguments)) > maxQueuedArgumentBytes) {
    throw new DoguError('payload_too_large', 'Arguments of a job may be at most 256 KB.');
  }
  const now = deps.clock.now().toISOString();
  const executionId = deps.ids.next('exe');
  // The queued record shows the arguments as the finished one will (small ones inline); the job
  // itself keeps them whole and records them again when it runs.
  const argumentBytes = utf8Bytes(JSON.stringify(request.arguments));
  const inline = argumentBytes <= maxRecordedArgumentBytes;
  const execution: Execution = {
    id: executionId,
    projectId: action.projectId,
    environmentId: environment.id,
    actionId: action.id,
    actionVersion: action.version,
    status: 'queued',
    principal: { kind: principal.kind, id: principal.id, email: principal.email },
    via: 'async_job',
    arguments: inline ? request.arguments : {},
    ...(inline ? {} : { payloads: { arguments: { bytes: argumentBytes, stored: false } } }),
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
    ...(request.timeLimitMs !== undefined ? { timeLimitMs: request.timeLimitMs } : {}),
    createdAt: now,
    updatedAt: now,
  };
  // The job before its record: a crash in between leaves a job with no execution, which the next
  // start ends as never accepted. The other order would leave an execution `queued` for ever.
  await deps.schedules.createReservation(job);
  await deps.executions.putExecution(execution);
  await deps.jobs.startExecution(jobInput(job));
  return execution;
}

/** What the job runner gets to start a queued job (and, on AWS, to choose its worker). */
export function jobInput(job: Reservation) {
  return {
    projectId: job.projectId,
    environmentId: job.environmentId,
    executionId: job.id,
    ...(job.timeLimitMs !== undefined ? { timeLimitMs: job.timeLimitMs } : {}),
  };
}

/** Runs a queued job (idempotent: a second start of the same execution does nothing). */
export async function runQueuedExecution(
  deps: SchedulingDeps,
  job: { projectId: string; executionId: string },
): Promise<void> {
  await runReservation(deps, { projectId: job.projectId, reservationId: job.executionId });
}
