import {
  acceptInvitation,
  acceptInvitationSchema,
  describeInvitation,
} from '../shared/domain/accounts/invitations.ts';
import { issueUserToken, signInSchema, signInWithPassword } from '../shared/domain/accounts/sign-in.ts';
import type { User } from '../shared/domain/model.ts';
import { recordLogin } from '../shared/http/audit-recording.ts';
import { newConsoleSession } from '../shared/http/console-session.ts';
import { defineRoutes, type HttpRequest } from '../shared/http/handler.ts';
import { cookie } from '../shared/http/session-cookie.ts';
import type { CoreServices } from '../shared/runtime/core-services.ts';

/**
 * Password sign-in (console: POST /auth/sign-in sets the session cookie; CLI and scripts:
 * POST /public/v1/login/password answers a token) and invitations
 * (GET /auth/invitations/{token}, POST /auth/invitations/{token}/accept). docs/accounts.md.
 */
async function signedInConsole(request: HttpRequest, services: CoreServices, user: User) {
  const session = await newConsoleSession(services, user);
  return {
    status: 200,
    body: {
      user: { kind: 'user', id: user.id, email: user.email, name: user.name },
      csrfToken: session.csrf,
      expiresAt: session.expiresAt,
    },
    headers: {
      'set-cookie': cookie(request.event, 'secure', session.token, {
        maxAgeSeconds: services.settings.loginTokenSeconds,
      }),
      'cache-control': 'no-store',
    },
  };
}

const sourceIpOf = (request: HttpRequest) => request.event.requestContext.http.sourceIp;

export const handler = defineRoutes({
  passwordSignIn: async (request, services) => {
    const user = await signInWithPassword(services, request.parseBody(signInSchema), sourceIpOf(request));
    await recordLogin(services, user, request.event, { method: 'password', client: 'console' });
    return signedInConsole(request, services, user);
  },
  passwordLogin: async (request, services) => {
    const user = await signInWithPassword(services, request.parseBody(signInSchema), sourceIpOf(request));
    await recordLogin(services, user, request.event, { method: 'password', client: 'cli' });
    const { token, expiresAt } = await issueUserToken(services, user);
    return {
      status: 200,
      body: { token, tokenType: 'Bearer', email: user.email, expiresAt },
      headers: { 'cache-control': 'no-store' },
    };
  },
  getInvitation: async (request, services) => ({
    status: 200,
    body: await describeInvitation(services, request.pathParameters.token!),
    headers: { 'cache-control': 'no-store' },
  }),
  acceptInvitation: async (request, services) => {
    const user = await acceptInvitation(
      services,
      request.pathParameters.token!,
      request.parseBody(acceptInvitationSchema),
    );
    await recordLogin(services, user, request.event, { method: 'invitation', client: 'console' });
    return signedInConsole(request, services, user);
  },
});
