import { ensureLocalAdmin, principalOf } from '../shared/domain/local-login.ts';
import { defineHandler } from '../shared/http/handler.ts';

/** POST /local/v1/login: a login token for the local administrator (loopback, embedded runtime only). */
export const handler = defineHandler('localLogin', async (_request, services) => {
  const user = await ensureLocalAdmin(services);
  const { token, expiresAt } = await services.tokens.issue(
    principalOf(user),
    services.settings.loginTokenSeconds,
  );
  return { status: 200, body: { token, tokenType: 'Bearer', email: user.email, expiresAt } };
});
