import * as z from 'zod';
import { resourceIdSchema } from '../shared/domain/definitions/data-source.ts';
import { badRequest } from '../shared/domain/errors.ts';
import * as versions from '../shared/domain/manage/versions.ts';
import { defineRoutes } from '../shared/http/handler.ts';
import { connectorCatalog } from '../shared/runtime/groups/connector-catalog.ts';
import { compose } from '../shared/runtime/services.ts';

const versionNumber = (text: string | undefined, name: string) => {
  const value = Number(text);
  if (!text || !Number.isInteger(value) || value < 1)
    throw badRequest(`'${name}' must be a version number: 1, 2, …`);
  return value;
};

/** /api/v1/projects/{projectId}/actions/{actionId}/{versions,diff,publications,copy}. */
export const handler = defineRoutes(
  {
    listActionVersions: async (request, services) => {
      const { projectId, actionId } = request.pathParameters;
      return {
        status: 200,
        body: await versions.listVersions(services, request.caller(), projectId!, actionId!),
      };
    },
    getActionVersion: async (request, services) => {
      const { projectId, actionId, version } = request.pathParameters;
      const found = await versions.getVersion(
        services,
        request.caller(),
        projectId!,
        actionId!,
        versionNumber(version, 'version'),
      );
      return { status: 200, body: found };
    },
    diffActionVersions: async (request, services) => {
      const { projectId, actionId } = request.pathParameters;
      const query = request.event.queryStringParameters ?? {};
      const diff = await versions.diffVersions(
        services,
        request.caller(),
        projectId!,
        actionId!,
        versionNumber(query.from, 'from'),
        versionNumber(query.to, 'to'),
      );
      return { status: 200, body: diff };
    },
    publishActionVersion: async (request, services) => {
      const { projectId, actionId, environmentId } = request.pathParameters;
      const { version } = request.parseBody(z.object({ version: z.number().int().min(1) }));
      const scope = { projectId: projectId!, actionId: actionId!, environmentId: environmentId! };
      const { publication, previousVersion } = await versions.publishVersion(
        services,
        request.caller(),
        scope,
        version,
      );
      return { status: 200, body: { ...publication, previousVersion: previousVersion ?? null } };
    },
    unpublishActionVersion: async (request, services) => {
      const { projectId, actionId, environmentId } = request.pathParameters;
      await versions.unpublish(services, request.caller(), {
        projectId: projectId!,
        actionId: actionId!,
        environmentId: environmentId!,
      });
      return { status: 204 };
    },
    copyAction: async (request, services) => {
      const { projectId, actionId } = request.pathParameters;
      const target = request.parseBody(
        z.object({ id: resourceIdSchema, name: z.string().min(1).max(200).optional() }),
      );
      const { action } = await versions.copyAction(services, request.caller(), projectId!, actionId!, target);
      return { status: 201, body: action, headers: { etag: `"${action.version}"` } };
    },
  },
  compose(connectorCatalog),
);
