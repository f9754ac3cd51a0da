import * as dataSources from '../shared/domain/manage/data-sources.ts';
import { defineHandler } from '../shared/http/handler.ts';
import { actionEngines } from '../shared/runtime/groups/action-engines.ts';
import { secretValues } from '../shared/runtime/groups/secret-values.ts';
import { compose } from '../shared/runtime/services.ts';

/**
 * POST …/data-sources/{dataSourceId}/environments/{environmentId}/test-connection: connects with the
 * kind's runtime (its driver), so this function composes the action engines (docs/decisions/0022).
 */
export const handler = defineHandler(
  'testDataSourceConnection',
  async (request, services) => {
    const { projectId, dataSourceId, environmentId } = request.pathParameters;
    const result = await dataSources.testDataSourceConnection(
      services,
      request.caller(),
      projectId!,
      dataSourceId!,
      environmentId!,
    );
    return { status: 200, body: result };
  },
  compose(secretValues, actionEngines),
);
