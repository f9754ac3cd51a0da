import { forbidden, notFound } from '../shared/domain/errors.ts';
import { executionBody } from '../shared/http/execution-response.ts';
import { defineHandler } from '../shared/http/handler.ts';
import { scheduling } from '../shared/runtime/groups/scheduling.ts';
import { compose } from '../shared/runtime/services.ts';

/** GET …/executions/{executionId}: the recorded outcome of one execution (with the rows of a finished job). */
export const handler = defineHandler(
  'getExecution',
  async (request, services) => {
    const { projectId, environmentId, executionId } = request.pathParameters as Record<string, string>;
    const membership = await services.definitions.getMembership(projectId!, request.principal!.id);
    if (!membership) throw forbidden(`You are not a member of project '${projectId}'.`);
    const execution = await services.executions.getExecution(executionId!);
    if (!execution || execution.projectId !== projectId || execution.environmentId !== environmentId) {
      throw notFound('Execution', executionId!);
    }
    // A job's rows are kept until read (spec 8: run as a job); a normal execution returned them already.
    // Results too large to answer inline are behind `links.results` (decision 0056).
    const finished = execution.status !== 'queued' && execution.status !== 'running';
    const results =
      execution.via === 'async_job' && finished && !execution.payloads?.results?.stored
        ? await services.schedules.getExecutionResults(executionId!)
        : undefined;
    return { status: 200, body: executionBody(execution, results) };
  },
  compose(scheduling),
);
