import { issueUserToken } from '../shared/domain/accounts/sign-in.ts';
import { ensureLocalAdmin } from '../shared/domain/local-login.ts';
import { recordLogin } from '../shared/http/audit-recording.ts';
import { defineHandler } from '../shared/http/handler.ts';

/** POST /local/v1/login: a login token for the local administrator (loopback, embedded runtime only). */
export const handler = defineHandler('localLogin', async (request, services) => {
  const user = await ensureLocalAdmin(services);
  const { token, expiresAt } = await issueUserToken(services, user);
  await recordLogin(services, user, request.event, { method: 'local' });
  return { status: 200, body: { token, tokenType: 'Bearer', email: user.email, expiresAt } };
});
