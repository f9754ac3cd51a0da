import { notFound } from '../shared/domain/errors.ts';
import * as configuration from '../shared/domain/manage/configuration.ts';
import { defineRoutes } from '../shared/http/handler.ts';

/** /api/v1/projects/{projectId}/environments/{environmentId}/variables[/{name}]; body `{"value": "…"}`. */
export const handler = defineRoutes({
  listVariables: async (request, services) => {
    const { projectId, environmentId } = request.pathParameters;
    const variables = await configuration.listVariables(services, request.caller(), {
      projectId: projectId!,
      environmentId: environmentId!,
    });
    return {
      status: 200,
      body: { data: Object.entries(variables).map(([name, value]) => ({ name, value })) },
    };
  },
  getVariable: async (request, services) => {
    const { projectId, environmentId, name } = request.pathParameters;
    const variables = await configuration.listVariables(services, request.caller(), {
      projectId: projectId!,
      environmentId: environmentId!,
    });
    if (!(name! in variables)) throw notFound('Variable', name!);
    return { status: 200, body: { name, value: variables[name!] } };
  },
  putVariable: async (request, services) => {
    const { projectId, environmentId, name } = request.pathParameters;
    const { value } = request.jsonBody();
    const scope = { projectId: projectId!, environmentId: environmentId! };
    const { created } = await configuration.putVariable(services, request.caller(), scope, name!, value);
    return { status: created ? 201 : 200, body: { name, value } };
  },
  deleteVariable: async (request, services) => {
    const { projectId, environmentId, name } = request.pathParameters;
    const scope = { projectId: projectId!, environmentId: environmentId! };
    await configuration.deleteVariable(services, request.caller(), scope, name!);
    return { status: 204 };
  },
});
