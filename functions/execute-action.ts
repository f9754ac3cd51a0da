import { badRequest, DoguError } from '../shared/domain/errors.ts';
import { executeAction } from '../shared/domain/execute-action.ts';
import { maxInlineResponseBytes } from '../shared/domain/execution-payloads.ts';
import type { ExecutionSource } from '../shared/domain/model.ts';
import { startAsyncExecution } from '../shared/domain/scheduling/async-executions.ts';
import { takeViewRun } from '../shared/domain/views/view-run-limit.ts';
import { requireVisibleView } from '../shared/domain/views/visibility.ts';
import { resultToCsv } from '../shared/http/csv.ts';
import { executionBody } from '../shared/http/execution-response.ts';
import { isFunctionUrlEvent } from '../shared/http/function-url.ts';
import { defineRoutes, type HttpRequest, type HttpResult } from '../shared/http/handler.ts';
import { serveMcp } from '../shared/http/mcp/serve-mcp.ts';
import type { CoreServices } from '../shared/runtime/core-services.ts';
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
 * POST …/actions/{actionId}/executions: run an action with `{"arguments": {...}}`.
 * `Accept: text/csv` answers one statement's rows as a CSV download (`?statement=N`, default 0).
 */
export const handler = defineRoutes(
  {
    // The MCP endpoint runs actions too: it shares this function and its composition (decision 0197).
    mcp: serveMcp,
    executeAction: async (request, services): Promise<HttpResult> => {
      const wantsCsv = /\btext\/csv\b/i.test(request.event.headers.accept ?? '');
      const query = request.event.queryStringParameters ?? {};
      const statementIndex = Number(query.statement ?? 0);
      if (wantsCsv && (!Number.isInteger(statementIndex) || statementIndex < 0)) {
        throw badRequest("'statement' must be the index of a statement: 0, 1, …");
      }
      const body = request.jsonBody();
      const args = body.arguments ?? {};
      if (typeof args !== 'object' || args === null || Array.isArray(args)) {
        throw badRequest("'arguments' must be a JSON object mapping parameter names to values.", [
          { pointer: '#/arguments', detail: 'must be an object' },
        ]);
      }
      const { projectId, environmentId, actionId } = request.pathParameters;
      if (body.async !== undefined && typeof body.async !== 'boolean') {
        throw badRequest("'async' must be true or false.", [
          { pointer: '#/async', detail: 'must be a boolean' },
        ]);
      }
      if (body.dryRun !== undefined && typeof body.dryRun !== 'boolean') {
        throw badRequest("'dryRun' must be true or false.", [
          { pointer: '#/dryRun', detail: 'must be a boolean' },
        ]);
      }
      if (body.dryRun === true && body.async === true) {
        throw badRequest('A dry run answers at once: leave out async.', [
          { pointer: '#/async', detail: 'not allowed with dryRun' },
        ]);
      }
      if (body.preview !== undefined && typeof body.preview !== 'boolean') {
        throw badRequest("'preview' must be true or false.", [
          { pointer: '#/preview', detail: 'must be a boolean' },
        ]);
      }
      if (body.preview === true && (body.async === true || body.dryRun === true)) {
        const other = body.async === true ? 'async' : 'dryRun';
        throw badRequest(`A preview answers at once and runs the statements: leave out ${other}.`, [
          { pointer: `#/${other}`, detail: 'not allowed with preview' },
        ]);
      }
      if (
        body.timeLimitSeconds !== undefined &&
        (body.async !== true || !Number.isInteger(body.timeLimitSeconds))
      ) {
        throw badRequest("'timeLimitSeconds' is a job's own limit: an integer, with async true.", [
          {
            pointer: '#/timeLimitSeconds',
            detail: 'must be an integer from 1 to 1800, with async true',
            ja: 'async を true にして、1 から 1800 までの整数（秒）で指定してください',
          },
        ]);
      }
      if (body.confirm !== undefined && typeof body.confirm !== 'boolean') {
        throw badRequest("'confirm' must be true or false.", [
          { pointer: '#/confirm', detail: 'must be a boolean' },
        ]);
      }
      if (body.via !== undefined && body.via !== 'console') {
        throw badRequest('\'via\' is "console" for runs from the console, or left out.', [
          { pointer: '#/via', detail: 'must be "console"' },
        ]);
      }
      const confirmed = body.confirm === true;
      const fromConsole = body.via === 'console';
      const source = await sourceOf(body.source, request, services);
      if (source && body.async === true) {
        throw badRequest('Runs from a view answer at once: leave out async.', [
          { pointer: '#/async', detail: 'not allowed with source' },
        ]);
      }
      if (body.async === true) {
        // Run as a job (spec 8: up to 30 minutes): answered at once; the client polls the execution.
        const execution = await startAsyncExecution(schedulingDeps(services), {
          principal: request.caller(),
          projectId: projectId!,
          environmentId: environmentId!,
          actionId: actionId!,
          arguments: args as Record<string, unknown>,
          ...(fromConsole ? { confirmation: { confirmed } } : {}),
          ...(body.timeLimitSeconds !== undefined
            ? { timeLimitMs: (body.timeLimitSeconds as number) * 1000 }
            : {}),
        });
        const location = `/public/v1/projects/${projectId}/environments/${environmentId}/executions/${execution.id}`;
        return {
          status: 202,
          body: { execution: executionBody(execution), links: { self: location } },
          headers: { location },
        };
      }
      // Through CloudFront and the function URL a run may use nearly the full minute (decision 0055);
      // through API Gateway it is cut before the gateway's 30 s.
      const viaFunctionUrl = isFunctionUrlEvent(request.event);
      const maxExecutionMs =
        (viaFunctionUrl && services.settings.maxFunctionUrlExecutionMs) || services.settings.maxExecutionMs;
      const outcome = await executeAction(
        { ...services, maxExecutionMs },
        {
          principal: request.caller(),
          projectId: projectId!,
          environmentId: environmentId!,
          actionId: actionId!,
          arguments: args as Record<string, unknown>,
          via: source ? 'view' : fromConsole ? 'console' : 'public_api',
          confirmed,
          ...(source ? { source } : {}),
          ...(body.dryRun === true ? { dryRun: true } : {}),
          ...(body.preview === true ? { preview: true } : {}),
          ...(typeof body.comment === 'string' ? { comment: body.comment.slice(0, 2000) } : {}),
        },
      );
      if (outcome.kind === 'review_requested') {
        // Spec 2.1: a review-gated action runs only after approval; the client polls the request.
        const { review } = outcome;
        const location = `/public/v1/projects/${projectId}/environments/${environmentId}/review-requests/${review.id}`;
        return {
          status: 202,
          body: { reviewRequest: review, links: { self: location } },
          headers: { location },
        };
      }
      const { execution, results } = outcome;
      const bodyOut = executionBody(execution, results);
      if (execution.status !== 'succeeded') {
        // A failed run is still recorded; the problem carries the execution so nothing is hidden.
        throw new DoguError(execution.error!.code as never, execution.error!.message, {
          extra: { execution: bodyOut },
        });
      }
      if (!wantsCsv) return { status: 200, body: bodyOut };
      const result = results[statementIndex];
      if (!result)
        throw badRequest(
          `The action has ${results.length} statement(s); there is no statement ${statementIndex}.`,
        );
      const csv = resultToCsv(result, { escapeFormulas: query.escapeFormulas !== 'false' });
      if (Buffer.byteLength(csv) > maxInlineResponseBytes) {
        // Too large to answer (a Lambda response carries 6 MB): the JSON result is behind its link.
        throw new DoguError(
          'payload_too_large',
          'The CSV is too large to answer; download the result from links.results, or narrow the query.',
          { extra: { execution: bodyOut } },
        );
      }
      return {
        status: 200,
        text: csv,
        headers: {
          'content-type': 'text/csv; charset=utf-8; header=present',
          'content-disposition': `attachment; filename="${actionId}-${execution.id}.csv"`,
          'x-dogu-execution-id': execution.id,
          ...(result.truncated ? { 'x-dogu-truncated': 'true' } : {}),
        },
      };
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

/**
 * `source: {viewId}`: the run was started from that view. It is recorded, never trusted for rights:
 * the view must exist and be visible to the caller, and the action is checked as for any call.
 */
async function sourceOf(
  value: unknown,
  request: HttpRequest,
  services: CoreServices,
): Promise<ExecutionSource | undefined> {
  if (value === undefined) return undefined;
  const viewId = (value as { viewId?: unknown } | null)?.viewId;
  if (
    typeof value !== 'object' ||
    value === null ||
    Object.keys(value).length !== 1 ||
    typeof viewId !== 'string' ||
    !/^[a-z0-9][a-z0-9_-]{0,62}$/.test(viewId)
  ) {
    throw badRequest('\'source\' must be {"viewId": "<view id>"}.', [
      { pointer: '#/source', detail: 'must be an object with only viewId, a view id' },
    ]);
  }
  const projectId = request.pathParameters.projectId!;
  await requireVisibleView(services, request.caller(), projectId, viewId);
  // A view's code may loop: its runs are counted per viewer and view (429 past the limit).
  await takeViewRun(
    services.viewRunLimit,
    { projectId, viewId, principalId: request.caller().id },
    services.clock.now().getTime(),
  );
  return { viewId };
}
