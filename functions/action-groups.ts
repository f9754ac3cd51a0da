import { actionGroupInputSchema, actionGroupOrderSchema } from '../shared/domain/definitions/governance.ts';
import { badRequest } from '../shared/domain/errors.ts';
import * as actionGroups from '../shared/domain/manage/action-groups.ts';
import { defineRoutes } from '../shared/http/handler.ts';

/**
 * /api/v1/projects/{projectId}/action-groups[/{groupId}[/order]]: actions shown on one screen in order.
 * Reads leave out deleted actions and name them in `missingActionIds`.
 */
export const handler = defineRoutes({
  listActionGroups: async (request, services) => ({
    status: 200,
    body: {
      data: await actionGroups.listActionGroups(
        services,
        request.caller(),
        request.pathParameters.projectId!,
      ),
    },
  }),
  getActionGroup: async (request, services) => {
    const { projectId, groupId } = request.pathParameters;
    return {
      status: 200,
      body: await actionGroups.getActionGroup(services, request.caller(), projectId!, groupId!),
    };
  },
  putActionGroup: async (request, services) => {
    const { projectId, groupId } = request.pathParameters;
    const input = request.parseBody(actionGroupInputSchema);
    if (input.id !== groupId)
      throw badRequest(`The body's id '${input.id}' differs from the path's '${groupId}'.`);
    const { group, created } = await actionGroups.putActionGroup(
      services,
      request.caller(),
      projectId!,
      input,
    );
    return { status: created ? 201 : 200, body: group };
  },
  reorderActionGroup: async (request, services) => {
    const { projectId, groupId } = request.pathParameters;
    const { actionIds } = request.parseBody(actionGroupOrderSchema);
    return {
      status: 200,
      body: await actionGroups.reorderActionGroup(
        services,
        request.caller(),
        projectId!,
        groupId!,
        actionIds,
      ),
    };
  },
  deleteActionGroup: async (request, services) => {
    const { projectId, groupId } = request.pathParameters;
    await actionGroups.deleteActionGroup(services, request.caller(), projectId!, groupId!);
    return { status: 204 };
  },
});
