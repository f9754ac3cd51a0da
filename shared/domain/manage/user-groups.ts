/**
 * User groups (spec 2.1 "groups of users"): a named set of principals that may
 * carry a role. A principal's effective role in a project is the highest of its
 * direct membership role and the roles of the groups that list it; a group
 * without a role grants nothing by itself (it can still be named in an
 * action's restricted permission).
 */
import { kindOfPrincipal, type UserGroup, type UserGroupInput } from '../definitions/governance.ts';
import { DoguError, notFound } from '../errors.ts';
import type { IdentityStore } from '../identity/model.ts';
import type { Membership, Principal } from '../model.ts';
import type { Clock, Store } from '../ports.ts';
import type { Role } from '../roles.ts';
import { authorize } from './access.ts';

export interface UserGroupsDeps {
  store: Store;
  identities: IdentityStore;
  clock: Clock;
}

/**
 * Granting or taking away the admin role needs the admin role: otherwise a development lead
 * (who manages members) could make itself administrator or remove the administrators.
 */
export function requireAdminToTouchAdmin(caller: Membership, rolesTouched: readonly (Role | undefined)[]) {
  if (rolesTouched.includes('admin') && caller.role !== 'admin') {
    throw new DoguError(
      'forbidden',
      `Only an administrator may grant or take away the role 'admin' in project '${caller.projectId}'.`,
      { extra: { requiredRole: 'admin' } },
    );
  }
}

export async function listUserGroups(deps: UserGroupsDeps, principal: Principal, projectId: string) {
  await authorize(deps.store, principal, projectId, 'view');
  return (await deps.store.listUserGroups(projectId)).sort((a, b) => a.id.localeCompare(b.id));
}

export async function getUserGroup(
  deps: UserGroupsDeps,
  principal: Principal,
  projectId: string,
  groupId: string,
) {
  await authorize(deps.store, principal, projectId, 'view');
  const group = await deps.store.getUserGroup(projectId, groupId);
  if (!group) throw notFound('User group', groupId);
  return group;
}

/** Creates or replaces the group; 409 if someone saved it in between. */
export async function putUserGroup(
  deps: UserGroupsDeps,
  principal: Principal,
  projectId: string,
  input: UserGroupInput,
): Promise<{ group: UserGroup; created: boolean }> {
  const caller = await authorize(deps.store, principal, projectId, 'manage_members');
  const existing = await deps.store.getUserGroup(projectId, input.id);
  if (changesWhoIsAdmin(existing, input)) requireAdminToTouchAdmin(caller, [existing?.role, input.role]);
  await requireExistingPrincipals(deps, projectId, input.members);
  const now = deps.clock.now().toISOString();
  const group: UserGroup = {
    ...input,
    projectId,
    version: (existing?.version ?? 0) + 1,
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
  };
  if (!(await deps.store.saveUserGroup(group, existing?.version ?? 0))) {
    throw new DoguError(
      'state_conflict',
      `User group '${input.id}' was changed by someone else; read it and try again.`,
    );
  }
  return { group, created: !existing };
}

/** Refused while an action's restricted permission names the group (like master data in use). */
export async function deleteUserGroup(
  deps: UserGroupsDeps,
  principal: Principal,
  projectId: string,
  groupId: string,
) {
  const caller = await authorize(deps.store, principal, projectId, 'manage_members');
  const group = await deps.store.getUserGroup(projectId, groupId);
  if (!group) throw notFound('User group', groupId);
  if (group.members.length > 0) requireAdminToTouchAdmin(caller, [group.role]);
  const users = (await deps.store.listActions(projectId))
    .filter((a) => a.permission?.groups?.includes(groupId))
    .map((a) => a.id);
  if (users.length > 0) {
    throw new DoguError(
      'state_conflict',
      `User group '${groupId}' is named in the permission of actions ${users.join(', ')}.`,
      { extra: { actions: users } },
    );
  }
  if (!(await deps.store.deleteUserGroup(projectId, groupId))) throw notFound('User group', groupId);
}

/** Does saving `input` over `existing` change which principals hold 'admin' through this group? */
function changesWhoIsAdmin(existing: UserGroup | undefined, input: UserGroupInput) {
  if (existing?.role !== 'admin' && input.role !== 'admin') return false;
  if (!existing || existing.role !== input.role) return true;
  const before = new Set(existing.members);
  return before.size !== input.members.length || input.members.some((m) => !before.has(m));
}

/**
 * Users must exist, and service accounts must exist in this project (they belong to one project,
 * as members.ts requires of members): 422 naming each unknown one. A service account of another
 * project would otherwise be given this project's role through the group.
 */
async function requireExistingPrincipals(
  { store, identities }: UserGroupsDeps,
  projectId: string,
  members: readonly string[],
) {
  const userIds = members.filter((id) => kindOfPrincipal(id) === 'user');
  const accountIds = members.filter((id) => kindOfPrincipal(id) === 'service_account');
  const [users, accounts] = await Promise.all([
    userIds.length > 0 ? store.getUsers(userIds) : Promise.resolve([]),
    Promise.all(accountIds.map((id) => identities.getServiceAccount(projectId, id))),
  ]);
  const found = new Set([...users.map((u) => u.id), ...accounts.flatMap((a) => (a ? [a.id] : []))]);
  const unknown = members.map((id, index) => ({ id, index })).filter(({ id }) => !found.has(id));
  if (unknown.length === 0) return;
  const describe = (id: string) =>
    kindOfPrincipal(id) === 'user'
      ? `user '${id}' does not exist`
      : `service account '${id}' does not exist in project '${projectId}'`;
  const unknownUsers = unknown.filter(({ id }) => kindOfPrincipal(id) === 'user').map((u) => u.id);
  const unknownAccounts = unknown.filter(({ id }) => kindOfPrincipal(id) !== 'user').map((u) => u.id);
  throw new DoguError(
    'invalid_definition',
    [
      unknownUsers.length > 0 ? `Unknown users: ${unknownUsers.join(', ')}.` : '',
      unknownAccounts.length > 0
        ? `Service accounts not in project '${projectId}': ${unknownAccounts.join(', ')}.`
        : '',
    ]
      .filter(Boolean)
      .join(' '),
    {
      errors: unknown.map(({ id, index }) => ({ pointer: `#/members/${index}`, detail: describe(id) })),
      extra: {
        ...(unknownUsers.length > 0 ? { unknownUsers } : {}),
        ...(unknownAccounts.length > 0 ? { unknownServiceAccounts: unknownAccounts } : {}),
      },
    },
  );
}
