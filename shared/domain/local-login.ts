/**
 * The embedded runtime's loopback-only admin login: no prompt, so scripts and
 * CI can use it. Full SSO arrives with the identity work.
 */
import type { Principal, User } from './model.ts';
import { AlreadyExistsError, type Clock, type IdGenerator, type Store } from './ports.ts';

export const localAdmin = { email: 'admin@dogu.local', name: 'Local Administrator' };

export async function ensureLocalAdmin(deps: {
  store: Store;
  clock: Clock;
  ids: IdGenerator;
}): Promise<User> {
  const existing = await deps.store.getUserByEmail(localAdmin.email);
  if (existing) return existing;
  try {
    return await deps.store.createUser({
      id: deps.ids.next('usr'),
      email: localAdmin.email,
      name: localAdmin.name,
      createdAt: deps.clock.now().toISOString(),
    });
  } catch (error) {
    // A concurrent login created the user first: use that one.
    if (!(error instanceof AlreadyExistsError)) throw error;
    const created = await deps.store.getUserByEmail(localAdmin.email);
    if (!created) throw error;
    return created;
  }
}

export const principalOf = (user: User): Principal => ({
  kind: 'user',
  id: user.id,
  email: user.email,
  name: user.name,
});
