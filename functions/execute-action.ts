import { badRequest, DoguError } from '../shared/domain/errors.ts';
import { executeAction } from '../shared/domain/execute-action.ts';
import { executionBody } from '../shared/http/execution-response.ts';
import { defineHandler } from '../shared/http/handler.ts';

/** POST …/actions/{actionId}/executions: run an action with `{"arguments": {...}}`. */
export const handler = defineHandler('executeAction', async (request, services) => {
  const body = request.jsonBody();
  const args = body.arguments ?? {};
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw badRequest("'arguments' must be a JSON object mapping parameter names to values.", [
      { pointer: '#/arguments', detail: 'must be an object' },
    ]);
  }
  const { projectId, environmentId, actionId } = request.pathParameters as Record<string, string>;
  const { execution, results } = await executeAction(
    { ...services, executions: services.store, maxExecutionMs: services.settings.maxExecutionMs },
    {
      principal: request.principal!,
      projectId: projectId!,
      environmentId: environmentId!,
      actionId: actionId!,
      arguments: args as Record<string, unknown>,
      via: 'public_api',
    },
  );
  const bodyOut = executionBody(execution, results);
  if (execution.status === 'succeeded') return { status: 200, body: bodyOut };
  // A failed run is still recorded; the problem carries the execution so nothing is hidden.
  throw new DoguError(execution.error!.code as never, execution.error!.message, {
    extra: { execution: bodyOut },
  });
});
