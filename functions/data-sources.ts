import { dataSourceInputSchema } from '../shared/connectors/schemas.ts';
import { badRequest } from '../shared/domain/errors.ts';
import * as dataSources from '../shared/domain/manage/data-sources.ts';
import { defineRoutes } from '../shared/http/handler.ts';

/**
 * /api/v1/projects/{projectId}/data-sources[/{dataSourceId}]: list, get, create or replace, delete;
 * per environment: test the connection, read the catalog.
 */
export const handler = defineRoutes({
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
    const dataSource = await dataSources.getDataSource(services, request.caller(), projectId!, dataSourceId!);
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
  deleteDataSource: async (request, services) => {
    const { projectId, dataSourceId } = request.pathParameters;
    await dataSources.deleteDataSource(services, request.caller(), projectId!, dataSourceId!);
    return { status: 204 };
  },
});
