import { notFound } from '../shared/domain/errors.ts';
import * as configuration from '../shared/domain/manage/configuration.ts';
import { defineRoutes } from '../shared/http/handler.ts';
import { secretValues } from '../shared/runtime/groups/secret-values.ts';
import { compose } from '../shared/runtime/services.ts';

/**
 * /api/v1/projects/{projectId}/environments/{environmentId}/secrets[/{name}]; body `{"value": "…"}`.
 * Write-only: reads return names and change times, never values.
 */
export const handler = defineRoutes(
  {
    listSecrets: async (request, services) => {
      const { projectId, environmentId } = request.pathParameters;
      const scope = { projectId: projectId!, environmentId: environmentId! };
      return {
        status: 200,
        body: { data: await configuration.listSecrets(services, request.caller(), scope) },
      };
    },
    getSecret: async (request, services) => {
      const { projectId, environmentId, name } = request.pathParameters;
      const scope = { projectId: projectId!, environmentId: environmentId! };
      const secret = (await configuration.listSecrets(services, request.caller(), scope)).find(
        (s) => s.name === name,
      );
      if (!secret) throw notFound('Secret', name!);
      return { status: 200, body: secret };
    },
    putSecret: async (request, services) => {
      const { projectId, environmentId, name } = request.pathParameters;
      const { value } = request.jsonBody();
      const scope = { projectId: projectId!, environmentId: environmentId! };
      const { created } = await configuration.putSecret(services, request.caller(), scope, name!, value);
      return { status: created ? 201 : 200, body: { name } };
    },
    deleteSecret: async (request, services) => {
      const { projectId, environmentId, name } = request.pathParameters;
      const scope = { projectId: projectId!, environmentId: environmentId! };
      await configuration.deleteSecret(services, request.caller(), scope, name!);
      return { status: 204 };
    },
  },
  compose(secretValues),
);
