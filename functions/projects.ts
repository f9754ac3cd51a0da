import * as bridges from '../shared/domain/bridges/manage-bridges.ts';
import { bridgeIdSchema, bridgeInputSchema } from '../shared/domain/bridges/model.ts';
import { badRequest } from '../shared/domain/errors.ts';
import * as uploadTokens from '../shared/domain/files/upload-tokens.ts';
import * as projects from '../shared/domain/manage/projects.ts';
import { defineRoutes } from '../shared/http/handler.ts';
import { fileStorage } from '../shared/runtime/groups/file-storage.ts';
import { compose } from '../shared/runtime/services.ts';

/** /api/v1/projects[/{projectId}[/environments[/{environmentId}]]]. */
export const handler = defineRoutes(
  {
    // Upload tokens (project settings, spec 4.3): the token is in the answer of create and rotate only.
    listUploadTokens: async (request, services) => ({
      status: 200,
      body: {
        data: await uploadTokens.listUploadTokens(
          services,
          request.caller(),
          request.pathParameters.projectId!,
        ),
      },
    }),
    createUploadToken: async (request, services) => ({
      status: 201,
      body: await uploadTokens.createUploadToken(
        services,
        request.caller(),
        request.pathParameters.projectId!,
        request.jsonBody(),
      ),
      headers: { 'cache-control': 'no-store' },
    }),
    rotateUploadToken: async (request, services) => ({
      status: 200,
      body: await uploadTokens.rotateUploadToken(
        services,
        request.caller(),
        request.pathParameters.projectId!,
        request.pathParameters.tokenId!,
      ),
      headers: { 'cache-control': 'no-store' },
    }),
    revokeUploadToken: async (request, services) => {
      await uploadTokens.revokeUploadToken(
        services,
        request.caller(),
        request.pathParameters.projectId!,
        request.pathParameters.tokenId!,
      );
      return { status: 204 };
    },
    listBridges: async (request, services) => ({
      status: 200,
      body: {
        data: await bridges.listBridges(services, request.caller(), request.pathParameters.projectId!),
      },
    }),
    putBridge: async (request, services) => {
      const { projectId, bridgeId } = request.pathParameters;
      const id = bridgeIdSchema.safeParse(bridgeId);
      if (!id.success) throw badRequest(`The bridge id '${bridgeId}' ${id.error.issues[0]!.message}.`);
      const saved = await bridges.putBridge(
        services,
        request.caller(),
        projectId!,
        id.data,
        request.parseBody(bridgeInputSchema),
      );
      return { status: saved.created ? 201 : 200, body: saved.bridge };
    },
    deleteBridge: async (request, services) => {
      const { projectId, bridgeId } = request.pathParameters;
      await bridges.deleteBridge(services, request.caller(), projectId!, bridgeId!);
      return { status: 204 };
    },
    listProjects: async (request, services) => ({
      status: 200,
      body: { data: await projects.listMyProjects(services, request.caller()) },
    }),
    getProject: async (request, services) => ({
      status: 200,
      body: await projects.getProject(services, request.caller(), request.pathParameters.projectId!),
    }),
    createProject: async (request, services) => {
      const input = request.parseBody(projects.projectInputSchema);
      if (input.id !== request.pathParameters.projectId) {
        throw badRequest(
          `The body's id '${input.id}' differs from the path's '${request.pathParameters.projectId}'.`,
        );
      }
      return { status: 201, body: await projects.createProject(services, request.caller(), input) };
    },
    putProjectSettings: async (request, services) => {
      const settings = request.parseBody(projects.projectSettingsSchema);
      const project = await projects.putProjectSettings(
        services,
        request.caller(),
        request.pathParameters.projectId!,
        settings,
      );
      return { status: 200, body: project };
    },
    listEnvironments: async (request, services) => ({
      status: 200,
      body: {
        data: await projects.listEnvironments(services, request.caller(), request.pathParameters.projectId!),
      },
    }),
    createEnvironment: async (request, services) => {
      const { projectId, environmentId } = request.pathParameters;
      const input = request.parseBody(projects.environmentInputSchema);
      if (input.id !== environmentId)
        throw badRequest(`The body's id '${input.id}' differs from the path's '${environmentId}'.`);
      return {
        status: 201,
        body: await projects.createEnvironment(services, request.caller(), projectId!, input),
      };
    },
    updateEnvironment: async (request, services) => {
      const { projectId, environmentId } = request.pathParameters;
      const change = request.parseBody(projects.environmentChangeSchema);
      return {
        status: 200,
        body: await projects.updateEnvironment(
          services,
          request.caller(),
          projectId!,
          environmentId!,
          change,
        ),
      };
    },
  },
  compose(fileStorage),
);
