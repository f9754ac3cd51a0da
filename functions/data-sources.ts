import { oauthHttpClient } from '../shared/adapters/oauth/oauth-http-client.ts';
import { dataSourceInputSchema } from '../shared/connectors/schemas.ts';
import { badRequest, DoguError } from '../shared/domain/errors.ts';
import * as dataSources from '../shared/domain/manage/data-sources.ts';
import * as oauthConnections from '../shared/domain/manage/oauth-connections.ts';
import { originOf } from '../shared/http/audit-recording.ts';
import { defineRoutes, type HttpRequest } from '../shared/http/handler.ts';
import { requestOrigin } from '../shared/http/session-cookie.ts';
import { connectorCatalog } from '../shared/runtime/groups/connector-catalog.ts';
import { fileStorage } from '../shared/runtime/groups/file-storage.ts';
import { secretValues } from '../shared/runtime/groups/secret-values.ts';
import { compose } from '../shared/runtime/services.ts';

const target = (request: HttpRequest) => ({
  projectId: request.pathParameters.projectId!,
  dataSourceId: request.pathParameters.dataSourceId!,
  environmentId: request.pathParameters.environmentId!,
});

const withOAuth = <S extends object>(services: S) => ({ ...services, oauth: oauthHttpClient });

/** The console's data-source screen for one environment, told how the OAuth connect flow ended. */
function consolePage(to: oauthConnections.OAuthTarget, outcome: Record<string, string>): string {
  const query = new URLSearchParams({ dataSource: to.dataSourceId, ...outcome });
  return `/p/${encodeURIComponent(to.projectId)}/e/${encodeURIComponent(to.environmentId)}/data-sources?${query}`;
}

/**
 * /api/v1/projects/{projectId}/data-sources[/{dataSourceId}]: list, get, create or replace, delete.
 * Testing a connection and reading the catalog connect through the kind's runtime
 * (data-source-connection.ts); file versions are file-versions.ts (docs/decisions/0022). Per
 * environment: connect with OAuth, disconnect, and the provider's redirect back (decision 0041).
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
      await dataSources.deleteDataSource(withOAuth(services), request.caller(), projectId!, dataSourceId!);
      return { status: 204 };
    },
    startDataSourceOAuth: async (request, services) => ({
      status: 200,
      body: await oauthConnections.startOAuthConnection(
        withOAuth(services),
        request.caller(),
        target(request),
        requestOrigin(request.event),
      ),
    }),
    disconnectDataSourceOAuth: async (request, services) => {
      await oauthConnections.disconnectOAuth(withOAuth(services), request.caller(), target(request));
      return { status: 204 };
    },
    /** The provider's redirect back (GET /api/v1/oauth/callback): then on to the console's page. */
    completeDataSourceOAuth: async (request, services) => {
      const query = request.event.queryStringParameters ?? {};
      const deps = withOAuth(services);
      // Without a state of this session there is no page to return to: the answer is the problem itself.
      const to = await oauthConnections.oauthTargetOf(deps, request.caller(), query.state);
      try {
        await oauthConnections.completeOAuthConnection(
          deps,
          request.caller(),
          query,
          originOf(request.event),
        );
        return { status: 302, headers: { location: consolePage(to, { oauth: 'connected' }) } };
      } catch (error) {
        if (!(error instanceof DoguError)) throw error;
        return { status: 302, headers: { location: consolePage(to, { oauthError: error.message }) } };
      }
    },
  },
  compose(secretValues, connectorCatalog, fileStorage),
);
