import { memberByEmailInputSchema, memberRoleInputSchema } from '../shared/domain/definitions/governance.ts';
import * as members from '../shared/domain/manage/members.ts';
import { defineRoutes } from '../shared/http/handler.ts';
import { invitationMail } from '../shared/runtime/groups/invitation-mail.ts';
import { compose } from '../shared/runtime/services.ts';

/**
 * /api/v1/projects/{projectId}/members[/{principalId}]: who belongs to the project and with which role.
 * PUT by id (`usr_…`, `sa_…`) or POST by e-mail address; a project always keeps one administrator.
 */
export const handler = defineRoutes(
  {
    listMembers: async (request, services) => ({
      status: 200,
      body: {
        data: await members.listMembers(services, request.caller(), request.pathParameters.projectId!),
      },
    }),
    getMember: async (request, services) => {
      const { projectId, principalId } = request.pathParameters;
      return {
        status: 200,
        body: await members.getMember(services, request.caller(), projectId!, principalId!),
      };
    },
    putMember: async (request, services) => {
      const { projectId, principalId } = request.pathParameters;
      const { role } = request.parseBody(memberRoleInputSchema);
      const { member, created } = await members.setMemberRole(
        services,
        request.caller(),
        projectId!,
        principalId!,
        role,
      );
      return { status: created ? 201 : 200, body: member };
    },
    addMemberByEmail: async (request, services) => {
      const { email, role } = request.parseBody(memberByEmailInputSchema);
      const { member, created } = await members.addMemberByEmail(
        services,
        request.caller(),
        request.pathParameters.projectId!,
        email,
        role,
      );
      return { status: created ? 201 : 200, body: member };
    },
    deleteMember: async (request, services) => {
      const { projectId, principalId } = request.pathParameters;
      await members.removeMember(services, request.caller(), projectId!, principalId!);
      return { status: 204 };
    },
  },
  compose(invitationMail),
);
