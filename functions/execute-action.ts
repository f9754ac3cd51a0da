import { executeAction } from '../shared/domain/execute-action.ts';
import { startAsyncExecution } from '../shared/domain/scheduling/async-executions.ts';
import { viewRunSource } from '../shared/domain/views/view-run-source.ts';
import { answerJob, answerOutcome } from '../shared/http/execution-answer.ts';
import { parseExecutionRequest } from '../shared/http/execution-request.ts';
import { isFunctionUrlEvent } from '../shared/http/function-url.ts';
import { defineRoutes, type HttpResult } from '../shared/http/handler.ts';
import { serveMcp } from '../shared/http/mcp/serve-mcp.ts';
import { actionEngines } from '../shared/runtime/groups/action-engines.ts';
import { executionPayloads } from '../shared/runtime/groups/execution-payloads.ts';
import { fileStorage } from '../shared/runtime/groups/file-storage.ts';
import { notifications as notificationCenter } from '../shared/runtime/groups/notifications.ts';
import { ownIdp } from '../shared/runtime/groups/own-idp.ts';
import { scheduling } from '../shared/runtime/groups/scheduling.ts';
import { scriptSandbox } from '../shared/runtime/groups/script-sandbox.ts';
import { secretValues } from '../shared/runtime/groups/secret-values.ts';
import { compose, schedulingDeps } from '../shared/runtime/services.ts';

/**
 * POST …/actions/{actionId}/executions: run an action with `{"arguments": {...}}` (parsed in
 * shared/http/execution-request.ts, answered by shared/http/execution-answer.ts).
 * `Accept: text/csv` answers one statement's rows as a CSV download (`?statement=N`, default 0).
 */
export const handler = defineRoutes(
  {
    // The MCP endpoint runs actions too: it shares this function and its composition (decision 0197).
    mcp: serveMcp,
    executeAction: async (request, services): Promise<HttpResult> => {
      const body = parseExecutionRequest(request);
      const { projectId, environmentId, actionId } = request.pathParameters;
      const where = { projectId: projectId!, environmentId: environmentId!, actionId: actionId! };
      const principal = request.caller();
      if (body.async) {
        // Run as a job (spec 8: up to 30 minutes): answered at once; the client polls the execution.
        const execution = await startAsyncExecution(schedulingDeps(services), {
          principal,
          ...where,
          arguments: body.arguments,
          ...(body.fromConsole ? { confirmation: { confirmed: body.confirmed } } : {}),
          ...(body.timeLimitMs !== undefined ? { timeLimitMs: body.timeLimitMs } : {}),
        });
        return answerJob(execution, where);
      }
      const source = body.sourceViewId
        ? await viewRunSource(services, principal, where.projectId, body.sourceViewId)
        : undefined;
      // Through CloudFront and the function URL a run may use nearly the full minute (decision 0055);
      // through API Gateway it is cut before the gateway's 30 s.
      const maxExecutionMs =
        (isFunctionUrlEvent(request.event) && services.settings.maxFunctionUrlExecutionMs) ||
        services.settings.maxExecutionMs;
      const outcome = await executeAction(
        { ...services, maxExecutionMs },
        {
          principal,
          ...where,
          arguments: body.arguments,
          via: source ? 'view' : body.fromConsole ? 'console' : 'public_api',
          confirmed: body.confirmed,
          ...(source ? { source } : {}),
          ...(body.dryRun ? { dryRun: true } : {}),
          ...(body.preview ? { preview: true } : {}),
          ...(body.comment !== undefined ? { comment: body.comment } : {}),
        },
      );
      return answerOutcome(outcome, where, body.csv);
    },
  },
  compose(
    secretValues,
    actionEngines,
    ownIdp,
    scriptSandbox,
    scheduling,
    notificationCenter,
    fileStorage,
    executionPayloads,
  ),
);
