import * as z from 'zod';
import { resourceIdSchema } from '../shared/domain/definitions/data-source.ts';
import { viewInputSchema } from '../shared/domain/definitions/view.ts';
import { badRequest } from '../shared/domain/errors.ts';
import * as views from '../shared/domain/manage/views.ts';
import { refuseDeepNesting } from '../shared/domain/views/nesting.ts';
import { defineRoutes, type HttpRequest } from '../shared/http/handler.ts';

const versionNumber = (text: string | undefined, name: string) => {
  const value = Number(text);
  if (!text || !Number.isInteger(value) || value < 1)
    throw badRequest(`'${name}' must be a version number: 1, 2, …`);
  return value;
};

const expectedVersionOf = (request: HttpRequest) => {
  const ifMatch = request.event.headers['if-match'];
  const expected = ifMatch === undefined ? undefined : Number(ifMatch.replaceAll('"', ''));
  if (expected !== undefined && !Number.isInteger(expected)) {
    throw badRequest('If-Match must be the view version in quotes, e.g. "3".');
  }
  return expected;
};

/**
 * /api/v1/projects/{projectId}/views[/{viewId}[/versions[/{version}]|/publications/{environmentId}|/copy]]
 * and …/environments/{environmentId}/views/{viewId} (the version that environment shows).
 * Definitions only: no engines, no secrets (docs/decisions/0022).
 */
export const handler = defineRoutes({
  listViews: async (request, services) => ({
    status: 200,
    body: { data: await views.listViews(services, request.caller(), request.pathParameters.projectId!) },
  }),
  getView: async (request, services) => {
    const { projectId, viewId } = request.pathParameters;
    const view = await views.getView(services, request.caller(), projectId!, viewId!);
    return { status: 200, body: view, headers: { etag: `"${view.version}"` } };
  },
  putView: async (request, services) => {
    const { projectId, viewId } = request.pathParameters;
    const body = request.jsonBody();
    refuseDeepNesting(body);
    const input = request.parseBody(viewInputSchema);
    if (input.id !== viewId)
      throw badRequest(`The body's id '${input.id}' differs from the path's '${viewId}'.`);
    const { changeMessage } = body;
    if (changeMessage !== undefined && (typeof changeMessage !== 'string' || changeMessage.length > 2000)) {
      throw badRequest("'changeMessage' must be a string of at most 2000 characters.");
    }
    const expectedVersion = expectedVersionOf(request);
    const { view, created } = await views.putView(services, request.caller(), projectId!, input, {
      ...(expectedVersion === undefined ? {} : { expectedVersion }),
      ...(changeMessage ? { message: changeMessage } : {}),
    });
    return { status: created ? 201 : 200, body: view, headers: { etag: `"${view.version}"` } };
  },
  deleteView: async (request, services) => {
    const { projectId, viewId } = request.pathParameters;
    await views.deleteView(services, request.caller(), projectId!, viewId!);
    return { status: 204 };
  },
  listViewVersions: async (request, services) => {
    const { projectId, viewId } = request.pathParameters;
    return {
      status: 200,
      body: await views.listViewVersions(services, request.caller(), projectId!, viewId!),
    };
  },
  getViewVersion: async (request, services) => {
    const { projectId, viewId, version } = request.pathParameters;
    const found = await views.getViewVersion(
      services,
      request.caller(),
      projectId!,
      viewId!,
      versionNumber(version, 'version'),
    );
    return { status: 200, body: found };
  },
  publishViewVersion: async (request, services) => {
    const { projectId, viewId, environmentId } = request.pathParameters;
    const { version } = request.parseBody(z.object({ version: z.number().int().min(1) }));
    const { publication, previousVersion } = await views.publishView(
      services,
      request.caller(),
      { projectId: projectId!, viewId: viewId!, environmentId: environmentId! },
      version,
    );
    return { status: 200, body: { ...publication, previousVersion: previousVersion ?? null } };
  },
  unpublishViewVersion: async (request, services) => {
    const { projectId, viewId, environmentId } = request.pathParameters;
    await views.unpublishView(services, request.caller(), {
      projectId: projectId!,
      viewId: viewId!,
      environmentId: environmentId!,
    });
    return { status: 204 };
  },
  copyView: async (request, services) => {
    const { projectId, viewId } = request.pathParameters;
    const target = request.parseBody(copyViewInputSchema);
    const { view } = await views.copyView(services, request.caller(), projectId!, viewId!, target);
    return { status: 201, body: view, headers: { etag: `"${view.version}"` } };
  },
  getEnvironmentView: async (request, services) => {
    const { projectId, environmentId, viewId } = request.pathParameters;
    const resolved = await views.resolveView(services, request.caller(), {
      projectId: projectId!,
      environmentId: environmentId!,
      viewId: viewId!,
    });
    return { status: 200, body: resolved };
  },
});

export const copyViewInputSchema = z.object({
  id: resourceIdSchema,
  name: z.string().min(1).max(200).optional(),
  /** Another project of the caller's; the view's actions, views and group must exist there. */
  projectId: resourceIdSchema.optional(),
});
