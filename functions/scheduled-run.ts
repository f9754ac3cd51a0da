/**
 * Invoked by EventBridge Scheduler (shared/adapters/aws/eventbridge-scheduler.ts): a due time of a
 * cron job, or a reservation. Deliveries are at least once; the domain makes a duplicate do nothing.
 */
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { logger } from '../shared/commons/logger.ts';
import { deliverCronRun } from '../shared/domain/scheduling/cron-runs.ts';
import { runReservation } from '../shared/domain/scheduling/reservations.ts';
import { actionEngines } from '../shared/runtime/groups/action-engines.ts';
import { executionPayloads } from '../shared/runtime/groups/execution-payloads.ts';
import { fileStorage } from '../shared/runtime/groups/file-storage.ts';
import { notifications as notificationCenter } from '../shared/runtime/groups/notifications.ts';
import { ownIdp } from '../shared/runtime/groups/own-idp.ts';
import { scheduling } from '../shared/runtime/groups/scheduling.ts';
import { scriptSandbox } from '../shared/runtime/groups/script-sandbox.ts';
import { secretValues } from '../shared/runtime/groups/secret-values.ts';
import { compose, getServices, schedulingDeps } from '../shared/runtime/services.ts';

/** Runs actions: the engines with connector runtimes (docs/decisions/0022). */
const composition = compose(
  secretValues,
  actionEngines,
  ownIdp,
  scriptSandbox,
  scheduling,
  notificationCenter,
  fileStorage,
  executionPayloads,
);

export type ScheduledRunEvent =
  | { kind: 'cron'; projectId: string; jobId: string; scheduledAt: string }
  | { kind: 'reservation'; projectId: string; reservationId: string };

export const handler = middy<ScheduledRunEvent, void, Error, Context>()
  .use(injectLambdaContext(logger, { resetKeys: true }))
  .handler(async (event) => {
    const deps = schedulingDeps(await getServices(composition));
    if (event.kind === 'cron') {
      logger.appendKeys({ projectId: event.projectId, jobId: event.jobId, scheduledAt: event.scheduledAt });
      await deliverCronRun(deps, {
        projectId: event.projectId,
        jobId: event.jobId,
        scheduledAt: event.scheduledAt,
      });
    } else if (event.kind === 'reservation') {
      logger.appendKeys({ projectId: event.projectId, reservationId: event.reservationId });
      await runReservation(deps, { projectId: event.projectId, reservationId: event.reservationId });
    } else {
      // Not retried: a malformed event would fail the same way every time.
      logger.error('unknown scheduled event', { kind: (event as { kind?: unknown }).kind });
    }
  });
