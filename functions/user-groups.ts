import { userGroupInputSchema } from '../shared/domain/definitions/governance.ts';
import { badRequest } from '../shared/domain/errors.ts';
import * as userGroups from '../shared/domain/manage/user-groups.ts';
import { defineRoutes } from '../shared/http/handler.ts';

/** /api/v1/projects/{projectId}/user-groups[/{groupId}]: groups of principals, optionally with a role. */
export const handler = defineRoutes({
  listUserGroups: async (request, services) => ({
    status: 200,
    body: {
      data: await userGroups.listUserGroups(services, request.caller(), request.pathParameters.projectId!),
    },
  }),
  getUserGroup: async (request, services) => {
    const { projectId, groupId } = request.pathParameters;
    return {
      status: 200,
      body: await userGroups.getUserGroup(services, request.caller(), projectId!, groupId!),
    };
  },
  putUserGroup: async (request, services) => {
    const { projectId, groupId } = request.pathParameters;
    const input = request.parseBody(userGroupInputSchema);
    if (input.id !== groupId)
      throw badRequest(`The body's id '${input.id}' differs from the path's '${groupId}'.`);
    const { group, created } = await userGroups.putUserGroup(services, request.caller(), projectId!, input);
    return { status: created ? 201 : 200, body: group };
  },
  deleteUserGroup: async (request, services) => {
    const { projectId, groupId } = request.pathParameters;
    await userGroups.deleteUserGroup(services, request.caller(), projectId!, groupId!);
    return { status: 204 };
  },
});
