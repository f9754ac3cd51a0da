import { z } from 'zod';
import { oauthHttpClient } from '../shared/adapters/oauth/oauth-http-client.ts';
import { dataSourceInputSchema } from '../shared/connectors/schemas.ts';
import { badRequest, DoguError } from '../shared/domain/errors.ts';
import * as dataSources from '../shared/domain/manage/data-sources.ts';
import * as fileVersions from '../shared/domain/manage/file-versions.ts';
import * as oauthConnections from '../shared/domain/manage/oauth-connections.ts';
import { originOf } from '../shared/http/audit-recording.ts';
import { defineRoutes, type HttpRequest } from '../shared/http/handler.ts';
import { requestOrigin } from '../shared/http/session-cookie.ts';
import type { Services } from '../shared/runtime/services.ts';

/** The console's upload: JSON with the file base64-encoded (docs/api.md). */
export const fileUploadSchema = z.object({
  name: z.string().nullish(),
  contentBase64: z.string().min(1, 'the file is empty'),
});
export const filePinSchema = z.object({ versionId: z.string().min(1).nullable() });

const base64Shape = /^[A-Za-z0-9+/]*={0,2}$/;

function decodeBase64(text: string): Uint8Array {
  const compact = text.replace(/\s+/g, '');
  if (compact.length % 4 !== 0 || !base64Shape.test(compact)) {
    throw new DoguError('invalid_definition', '#/contentBase64: is not base64', {
      errors: [{ pointer: '#/contentBase64', detail: 'is not base64' }],
    });
  }
  return new Uint8Array(Buffer.from(compact, 'base64'));
}

const fileTarget = (request: HttpRequest) => ({
  projectId: request.pathParameters.projectId!,
  dataSourceId: request.pathParameters.dataSourceId!,
  environmentId: request.pathParameters.environmentId!,
});

const oauthDeps = (services: Services) => ({ ...services, oauth: oauthHttpClient });

/** The console's data-source screen for one environment, told how the OAuth connect flow ended. */
function consolePage(target: oauthConnections.OAuthTarget, outcome: Record<string, string>): string {
  const query = new URLSearchParams({ dataSource: target.dataSourceId, ...outcome });
  return `/p/${encodeURIComponent(target.projectId)}/e/${encodeURIComponent(target.environmentId)}/data-sources?${query}`;
}

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
  listFileVersions: async (request, services) => ({
    status: 200,
    body: await fileVersions.listFileVersions(services, request.caller(), fileTarget(request)),
  }),
  uploadFileVersion: async (request, services) => {
    const input = request.parseBody(fileUploadSchema);
    const version = await fileVersions.uploadFileVersion(services, request.caller(), fileTarget(request), {
      name: input.name,
      bytes: decodeBase64(input.contentBase64),
    });
    return { status: 201, body: version };
  },
  deleteFileVersion: async (request, services) => {
    await fileVersions.deleteFileVersion(services, request.caller(), {
      ...fileTarget(request),
      versionId: request.pathParameters.versionId!,
    });
    return { status: 204 };
  },
  pinFileVersion: async (request, services) => {
    const { versionId } = request.parseBody(filePinSchema);
    return {
      status: 200,
      body: await fileVersions.pinFileVersion(services, request.caller(), fileTarget(request), versionId),
    };
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
  startDataSourceOAuth: async (request, services) => ({
    status: 200,
    body: await oauthConnections.startOAuthConnection(
      oauthDeps(services),
      request.caller(),
      fileTarget(request),
      requestOrigin(request.event),
    ),
  }),
  disconnectDataSourceOAuth: async (request, services) => {
    await oauthConnections.disconnectOAuth(oauthDeps(services), request.caller(), fileTarget(request));
    return { status: 204 };
  },
  /** The provider's redirect back (GET /api/v1/oauth/callback): then on to the console's page. */
  completeDataSourceOAuth: async (request, services) => {
    const query = request.event.queryStringParameters ?? {};
    const deps = oauthDeps(services);
    // Without a state of this session there is no page to return to: the answer is the problem itself.
    const target = await oauthConnections.oauthTargetOf(deps, request.caller(), query.state);
    try {
      await oauthConnections.completeOAuthConnection(deps, request.caller(), query, originOf(request.event));
      return { status: 302, headers: { location: consolePage(target, { oauth: 'connected' }) } };
    } catch (error) {
      if (!(error instanceof DoguError)) throw error;
      return {
        status: 302,
        headers: { location: consolePage(target, { oauthError: error.message }) },
      };
    }
  },
  deleteDataSource: async (request, services) => {
    const { projectId, dataSourceId } = request.pathParameters;
    await dataSources.deleteDataSource(oauthDeps(services), request.caller(), projectId!, dataSourceId!);
    return { status: 204 };
  },
});
