import { actionInputSchema } from '../shared/connectors/schemas.ts';
import { badRequest } from '../shared/domain/errors.ts';
import * as actions from '../shared/domain/manage/actions.ts';
import { defineRoutes } from '../shared/http/handler.ts';
import { connectorCatalog } from '../shared/runtime/groups/connector-catalog.ts';
import { compose } from '../shared/runtime/services.ts';

/**
 * /api/v1/projects/{projectId}/actions[/{actionId}]: list, get, create or replace, delete.
 * Each save is a new version; `If-Match: "<version>"` makes a save fail (409) if someone saved in between.
 */
export const handler = defineRoutes(
  {
    listActions: async (request, services) => {
      const list = await actions.listActions(services, request.caller(), request.pathParameters.projectId!);
      return { status: 200, body: { data: list } };
    },
    getAction: async (request, services) => {
      const { projectId, actionId } = request.pathParameters;
      const action = await actions.getAction(services, request.caller(), projectId!, actionId!);
      return { status: 200, body: action, headers: { etag: `"${action.version}"` } };
    },
    putAction: async (request, services) => {
      const { projectId, actionId } = request.pathParameters;
      const input = request.parseBody(actionInputSchema);
      if (input.id !== actionId)
        throw badRequest(`The body's id '${input.id}' differs from the path's '${actionId}'.`);
      const ifMatch = request.event.headers['if-match'];
      const expectedVersion = ifMatch === undefined ? undefined : Number(ifMatch.replaceAll('"', ''));
      if (expectedVersion !== undefined && !Number.isInteger(expectedVersion)) {
        throw badRequest('If-Match must be the action version in quotes, e.g. "3".');
      }
      // The version's message travels beside the definition: `changeMessage` is not part of it.
      const { changeMessage } = request.jsonBody();
      if (changeMessage !== undefined && (typeof changeMessage !== 'string' || changeMessage.length > 2000)) {
        throw badRequest("'changeMessage' must be a string of at most 2000 characters.");
      }
      const { action, created } = await actions.putAction(services, request.caller(), projectId!, input, {
        ...(expectedVersion === undefined ? {} : { expectedVersion }),
        ...(changeMessage ? { message: changeMessage } : {}),
      });
      return { status: created ? 201 : 200, body: action, headers: { etag: `"${action.version}"` } };
    },
    deleteAction: async (request, services) => {
      const { projectId, actionId } = request.pathParameters;
      await actions.deleteAction(services, request.caller(), projectId!, actionId!);
      return { status: 204 };
    },
  },
  compose(connectorCatalog),
);
