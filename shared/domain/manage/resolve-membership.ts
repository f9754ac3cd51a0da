/** How authorization sees a principal in a project: its direct membership and its user groups together. */
import type { Membership } from '../model.ts';
import type { Store } from '../ports.ts';
import { type Role, roles } from '../roles.ts';

/** The most powerful of the roles (model.ts lists roles most powerful first); undefined when there is none. */
export function effectiveRole(
  directRole: Role | undefined,
  groupRoles: readonly (Role | undefined)[],
): Role | undefined {
  const held = new Set([directRole, ...groupRoles]);
  return roles.find((role) => held.has(role));
}

/** A membership as authorization sees it, with the ids of the user groups that list the principal. */
/** `role` is the highest role held; `roles` all of them, since rights are the union over roles. */
export type ResolvedMembership = Membership & { groups: string[]; roles: Role[] };

/**
 * The principal's membership of the project as authorization should see it: the effective role of
 * its direct membership and its groups (for restricted action permissions, `groups` names them);
 * undefined when neither gives it a role.
 */
export async function resolveMembership(
  store: Pick<Store, 'getMembership' | 'listUserGroupsOfPrincipal'>,
  projectId: string,
  principalId: string,
): Promise<ResolvedMembership | undefined> {
  const [direct, groups] = await Promise.all([
    store.getMembership(projectId, principalId),
    store.listUserGroupsOfPrincipal(projectId, principalId),
  ]);
  const role = effectiveRole(
    direct?.role,
    groups.map((g) => g.role),
  );
  if (!role) return undefined;
  const held = new Set([direct?.role, ...groups.map((g) => g.role)]);
  const allRoles = roles.filter((r) => held.has(r));
  return { projectId, principalId, role, roles: allRoles, groups: groups.map((g) => g.id) };
}
