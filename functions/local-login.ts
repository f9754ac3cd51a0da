import { ensureLocalAdmin, principalOf } from '../shared/domain/local-login.ts';
import { originOf } from '../shared/http/audit-recording.ts';
import { defineHandler } from '../shared/http/handler.ts';

/** POST /local/v1/login: a login token for the local administrator (loopback, embedded runtime only). */
export const handler = defineHandler('localLogin', async (request, services) => {
  const user = await ensureLocalAdmin(services);
  const { token, expiresAt } = await services.tokens.issue(
    principalOf(user),
    services.settings.loginTokenSeconds,
  );
  // A login belongs to no project: it is recorded in each project the user is a member of.
  for (const membership of await services.store.listMembershipsOfPrincipal(user.id)) {
    await services.audit.append({
      id: services.ids.next('aud'),
      projectId: membership.projectId,
      at: services.clock.now().toISOString(),
      actor: { kind: 'user', id: user.id, email: user.email },
      origin: originOf(request.event),
      event: 'login',
      target: { type: 'user', id: user.id },
      outcome: 'succeeded',
      details: { method: 'local' },
    });
  }
  return { status: 200, body: { token, tokenType: 'Bearer', email: user.email, expiresAt } };
});
