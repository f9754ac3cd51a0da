import { dataSourceInputSchema } from '../shared/connectors/schemas.ts';
import { badRequest } from '../shared/domain/errors.ts';
import * as dataSources from '../shared/domain/manage/data-sources.ts';
import { defineRoutes } from '../shared/http/handler.ts';
import { connectorCatalog } from '../shared/runtime/groups/connector-catalog.ts';
import { fileStorage } from '../shared/runtime/groups/file-storage.ts';
import { secretValues } from '../shared/runtime/groups/secret-values.ts';
import { compose } from '../shared/runtime/services.ts';

/**
 * /api/v1/projects/{projectId}/data-sources[/{dataSourceId}]: list, get, create or replace, delete.
 * Testing a connection and reading the catalog connect through the kind's runtime
 * (data-source-connection.ts); file versions are file-versions.ts (docs/decisions/0022).
 */
export const handler = defineRoutes(
  {
    listDataSources: async (request, services) => {
      const list = await dataSources.listDataSources(
        services,
        request.caller(),
        request.pathParameters.projectId!,
      );
      return {
        status: 200,
        body: {
          data: list.map((d) => dataSources.presentDataSource(d, services.engines.secretFields(d.kind))),
        },
      };
    },
    getDataSource: async (request, services) => {
      const { projectId, dataSourceId } = request.pathParameters;
      const dataSource = await dataSources.getDataSource(
        services,
        request.caller(),
        projectId!,
        dataSourceId!,
      );
      return {
        status: 200,
        body: dataSources.presentDataSource(dataSource, services.engines.secretFields(dataSource.kind)),
      };
    },
    putDataSource: async (request, services) => {
      const { projectId, dataSourceId } = request.pathParameters;
      const input = request.parseBody(dataSourceInputSchema);
      if (input.id !== dataSourceId)
        throw badRequest(`The body's id '${input.id}' differs from the path's '${dataSourceId}'.`);
      const { dataSource, created } = await dataSources.putDataSource(
        services,
        request.caller(),
        projectId!,
        input,
      );
      return {
        status: created ? 201 : 200,
        body: dataSources.presentDataSource(dataSource, services.engines.secretFields(dataSource.kind)),
      };
    },
    deleteDataSource: async (request, services) => {
      const { projectId, dataSourceId } = request.pathParameters;
      await dataSources.deleteDataSource(services, request.caller(), projectId!, dataSourceId!);
      return { status: 204 };
    },
  },
  compose(secretValues, connectorCatalog, fileStorage),
);
