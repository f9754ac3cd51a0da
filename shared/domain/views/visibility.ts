/**
 * Who may see a view. Kept apart from saving (which compiles code views) so the execution
 * function can check a `source.viewId` without carrying the compiler (decision 0022).
 */
import type { ViewInput } from '../definitions/view.ts';
import { DoguError, notFound } from '../errors.ts';
import { authorize } from '../manage/access.ts';
import type { ResolvedMembership } from '../manage/resolve-membership.ts';
import type { Principal } from '../model.ts';
import type { Store } from '../ports.ts';
import { rightsOfRole } from '../rights.ts';
import type { Role } from '../roles.ts';

/** Holders of `edit_actions` see every view (they edit them); others see what `permission` admits. */
export function maySeeView(
  view: Pick<ViewInput, 'permission'>,
  principal: Principal,
  membership: ResolvedMembership,
): boolean {
  const held = membership.roles.length > 0 ? membership.roles : [membership.role];
  if (held.some((role) => rightsOfRole[role].has('edit_actions'))) return true;
  const permission = view.permission;
  if (!permission || permission.mode === 'everyone') return true;
  return (
    (permission.users ?? []).some(
      (u) => u === principal.id || u.toLowerCase() === principal.email.toLowerCase(),
    ) ||
    (permission.roles ?? []).some((role: Role) => held.includes(role)) ||
    (permission.groups ?? []).some((g) => membership.groups.includes(g))
  );
}

export const restricted = (viewId: string) =>
  new DoguError(
    'forbidden',
    `View '${viewId}' is restricted: you are not among the users, roles or groups allowed to see it.`,
  );

export async function seeingMember(deps: { store: Store }, principal: Principal, projectId: string) {
  return (await authorize(deps.store, principal, projectId, 'view')) as ResolvedMembership;
}

/** For the execution endpoint: a `source.viewId` must name a view of the project the caller may see. */
export async function requireVisibleView(
  deps: { store: Store },
  principal: Principal,
  projectId: string,
  viewId: string,
): Promise<void> {
  const membership = await seeingMember(deps, principal, projectId);
  const view = await deps.store.getView(projectId, viewId);
  if (!view) throw notFound('View', viewId);
  if (!maySeeView(view, principal, membership)) throw restricted(viewId);
}
