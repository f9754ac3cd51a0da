import * as runs from '../shared/domain/scheduling/cron-runs.ts';
import { defineHandler } from '../shared/http/handler.ts';
import { actionEngines } from '../shared/runtime/groups/action-engines.ts';
import { scheduling } from '../shared/runtime/groups/scheduling.ts';
import { secretValues } from '../shared/runtime/groups/secret-values.ts';
import { compose, schedulingDeps } from '../shared/runtime/services.ts';

/**
 * POST …/cron-jobs/{jobId}/runs/{scheduledAt}/retry: runs the job's action again at once, so this
 * function composes the action engines; the other cron-job routes do not (docs/decisions/0022).
 */
export const handler = defineHandler(
  'retryCronRun',
  async (request, services) => ({
    status: 200,
    body: await runs.retryCronRun(
      schedulingDeps(services),
      request.caller(),
      { projectId: request.pathParameters.projectId!, environmentId: request.pathParameters.environmentId! },
      request.pathParameters.jobId!,
      decodeURIComponent(request.pathParameters.scheduledAt!),
    ),
  }),
  compose(secretValues, actionEngines, scheduling),
);
