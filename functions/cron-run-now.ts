import * as runs from '../shared/domain/scheduling/cron-runs.ts';
import { defineRoutes, type HttpRequest } from '../shared/http/handler.ts';
import { actionEngines } from '../shared/runtime/groups/action-engines.ts';
import { executionPayloads } from '../shared/runtime/groups/execution-payloads.ts';
import { fileStorage } from '../shared/runtime/groups/file-storage.ts';
import { notifications } from '../shared/runtime/groups/notifications.ts';
import { ownIdp } from '../shared/runtime/groups/own-idp.ts';
import { scheduling } from '../shared/runtime/groups/scheduling.ts';
import { scriptSandbox } from '../shared/runtime/groups/script-sandbox.ts';
import { secretValues } from '../shared/runtime/groups/secret-values.ts';
import { compose, schedulingDeps } from '../shared/runtime/services.ts';

const scopeOf = (request: HttpRequest) => ({
  projectId: request.pathParameters.projectId!,
  environmentId: request.pathParameters.environmentId!,
});

/**
 * POST …/cron-jobs/{jobId}/run-now and …/runs/{scheduledAt}/retry: both run the job's action at
 * once, so this function composes the action engines; the other cron-job routes do not
 * (docs/decisions/0022).
 */
export const handler = defineRoutes(
  {
    /** One run at this moment, recorded as manual in the history (201, the finished run). */
    runCronJobNow: async (request, services) => ({
      status: 201,
      body: await runs.runCronJobNow(
        schedulingDeps(services),
        request.caller(),
        scopeOf(request),
        request.pathParameters.jobId!,
      ),
    }),
    retryCronRun: async (request, services) => ({
      status: 200,
      body: await runs.retryCronRun(
        schedulingDeps(services),
        request.caller(),
        scopeOf(request),
        request.pathParameters.jobId!,
        // Path parameters arrive decoded (API Gateway and route-matcher.ts): decoding again would misread '%'.
        request.pathParameters.scheduledAt!,
      ),
    }),
  },
  compose(
    secretValues,
    actionEngines,
    ownIdp,
    scriptSandbox,
    scheduling,
    notifications,
    fileStorage,
    executionPayloads,
  ),
);
