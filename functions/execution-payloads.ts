import { forbidden, notFound } from '../shared/domain/errors.ts';
import { type PayloadPart, payloadKey, payloadParts } from '../shared/domain/execution-payloads.ts';
import { defineHandler, type HttpResult } from '../shared/http/handler.ts';
import { executionPayloads } from '../shared/runtime/groups/execution-payloads.ts';
import { compose } from '../shared/runtime/services.ts';

/** A presigned download stays valid this long: enough to start it, short enough not to be shared. */
const downloadSeconds = 300;

/**
 * GET …/executions/{executionId}/payloads/{payload}: the arguments or results of an execution that
 * were too large to record or answer inline (decision 0056), to whoever may read the execution. On
 * AWS a 303 to a short-lived S3 URL (a Lambda response carries at most 6 MB); locally the JSON itself.
 */
export const handler = defineHandler(
  'getExecutionPayload',
  async (request, services): Promise<HttpResult> => {
    const { projectId, environmentId, executionId, payload } = request.pathParameters as Record<
      string,
      string
    >;
    const membership = await services.definitions.getMembership(projectId!, request.principal!.id);
    if (!membership) throw forbidden(`You are not a member of project '${projectId}'.`);
    const execution = await services.executions.getExecution(executionId!);
    if (!execution || execution.projectId !== projectId || execution.environmentId !== environmentId) {
      throw notFound('Execution', executionId!);
    }
    const part = payload as PayloadPart;
    if (!payloadParts.includes(part) || !execution.payloads?.[part]?.stored) {
      throw notFound('Stored payload', `${executionId}/${payload}`);
    }
    const key = payloadKey(execution.id, part);
    if (services.payloads.downloadUrl) {
      const location = await services.payloads.downloadUrl(key, downloadSeconds);
      return { status: 303, headers: { location, 'cache-control': 'no-store' } };
    }
    const bytes = await services.payloads.get(key);
    if (!bytes) throw notFound('Stored payload', `${executionId}/${payload}`);
    return {
      status: 200,
      text: Buffer.from(bytes).toString('utf8'),
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'content-disposition': `attachment; filename="${execution.id}-${part}.json"`,
        'cache-control': 'no-store',
      },
    };
  },
  compose(executionPayloads),
);
