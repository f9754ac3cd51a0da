import { requireAccountAdministrator } from '../shared/domain/accounts/account-records.ts';
import * as manage from '../shared/domain/accounts/manage-accounts.ts';
import { changePassword, changePasswordSchema, issueUserToken } from '../shared/domain/accounts/sign-in.ts';
import { deploymentAuditLog } from '../shared/http/audit-recording.ts';
import { newConsoleSession } from '../shared/http/console-session.ts';
import { defineRoutes, type HttpRequest } from '../shared/http/handler.ts';
import { cookie, requestOrigin, sessionTokenOf } from '../shared/http/session-cookie.ts';
import type { CoreServices } from '../shared/runtime/core-services.ts';
import { invitationMail } from '../shared/runtime/groups/invitation-mail.ts';
import { compose } from '../shared/runtime/services.ts';

/**
 * /api/v1/users[/{userId}[/invitation|/revoke-sessions]] for account administrators, and
 * /api/v1/me/password for everyone (docs/accounts.md). Invitation links are answered once, whole.
 */
const withLink = (request: HttpRequest, invitation: manage.IssuedInvitation | undefined) =>
  invitation
    ? { invitation: { ...invitation, url: `${requestOrigin(request.event)}${invitation.path}` } }
    : {};

export const handler = defineRoutes(
  {
    listUsers: async (request, services) => ({
      status: 200,
      body: { data: await manage.listAccounts(services, request.caller()) },
    }),
    createUser: async (request, services) => {
      const input = request.parseBody(manage.createAccountSchema);
      const { account, invitation } = await manage.createAccount(services, request.caller(), input);
      return { status: 201, body: { ...account, ...withLink(request, invitation) } };
    },
    getUser: async (request, services) => ({
      status: 200,
      body: await manage.getAccount(services, request.caller(), request.pathParameters.userId!),
    }),
    updateUser: async (request, services) => ({
      status: 200,
      body: await manage.updateAccount(
        services,
        request.caller(),
        request.pathParameters.userId!,
        request.parseBody(manage.updateAccountSchema),
      ),
    }),
    inviteUser: async (request, services) => {
      const { account, invitation } = await manage.reinvite(
        services,
        request.caller(),
        request.pathParameters.userId!,
      );
      return { status: 200, body: { ...account, ...withLink(request, invitation) } };
    },
    revokeUserSessions: async (request, services) => ({
      status: 200,
      body: await manage.revokeSessions(services, request.caller(), request.pathParameters.userId!),
    }),
    /** GET /api/v1/account-audit-log: account and single sign-on changes, newest first (administrators). */
    listAccountAuditLog: async (request, services) => {
      await requireAccountAdministrator(services, request.caller());
      const limit = Math.min(
        Math.max(Number(request.event.queryStringParameters?.limit ?? 100) || 100, 1),
        500,
      );
      const cursor = request.event.queryStringParameters?.cursor;
      const page = await services.audit.list({
        projectId: deploymentAuditLog,
        limit,
        ...(cursor ? { cursor } : {}),
      });
      return {
        status: 200,
        body: {
          data: page.entries,
          has_more: page.nextCursor !== undefined,
          ...(page.nextCursor === undefined ? {} : { next_cursor: page.nextCursor }),
        },
      };
    },
    /** Every other session ends; the caller gets a fresh token (or cookie) to stay signed in here. */
    changePassword: async (request, services) => {
      const caller = request.caller();
      const input = request.parseBody(changePasswordSchema);
      await changePassword(services, caller, input, request.event.requestContext.http.sourceIp);
      return renewedLogin(request, services);
    },
  },
  compose(invitationMail),
);

async function renewedLogin(request: HttpRequest, services: CoreServices) {
  const caller = request.caller();
  const [user] = await services.store.getUsers([caller.id]);
  if (sessionTokenOf(request.event) && !request.event.headers.authorization) {
    const session = await newConsoleSession(services, user!);
    return {
      status: 200,
      body: { csrfToken: session.csrf, expiresAt: session.expiresAt },
      headers: {
        'set-cookie': cookie(request.event, 'secure', session.token, {
          maxAgeSeconds: services.settings.loginTokenSeconds,
        }),
      },
    };
  }
  const { token, expiresAt } = await issueUserToken(services, user!);
  return { status: 200, body: { token, tokenType: 'Bearer', email: user!.email, expiresAt } };
}
