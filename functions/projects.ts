import { badRequest } from '../shared/domain/errors.ts';
import * as projects from '../shared/domain/manage/projects.ts';
import { defineRoutes } from '../shared/http/handler.ts';

/** /api/v1/projects[/{projectId}[/environments[/{environmentId}]]]. */
export const handler = defineRoutes({
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
});
