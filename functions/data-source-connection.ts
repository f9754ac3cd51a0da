import * as dataSources from '../shared/domain/manage/data-sources.ts';
import { defineRoutes } from '../shared/http/handler.ts';
import { actionEngines } from '../shared/runtime/groups/action-engines.ts';
import { fileStorage } from '../shared/runtime/groups/file-storage.ts';
import { ownIdp } from '../shared/runtime/groups/own-idp.ts';
import { scriptSandbox } from '../shared/runtime/groups/script-sandbox.ts';
import { secretValues } from '../shared/runtime/groups/secret-values.ts';
import { compose } from '../shared/runtime/services.ts';

/**
 * …/data-sources/{dataSourceId}/environments/{environmentId}/test-connection and /catalog: both
 * connect with the kind's runtime (its driver), so this function composes the action engines
 * (docs/decisions/0022); an engine may read the data source's files (gRPC protosets).
 */
export const handler = defineRoutes(
  {
    testDataSourceConnection: async (request, services) => {
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
    getDataSourceCatalog: async (request, services) => {
      const { projectId, dataSourceId, environmentId } = request.pathParameters;
      const catalog = await dataSources.dataSourceCatalog(
        services,
        request.caller(),
        projectId!,
        dataSourceId!,
        environmentId!,
      );
      return { status: 200, body: catalog };
    },
  },
  compose(secretValues, actionEngines, ownIdp, scriptSandbox, fileStorage),
);
