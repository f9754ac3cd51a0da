/**
 * Project members: users and service accounts with a role. A project always
 * keeps at least one direct administrator; changes to member roles of one
 * project are serialised by a lease so two concurrent demotions cannot both
 * pass that check (docs/data-model.md, "Members").
 */

import { requireAccountAdministrator } from '../accounts/account-records.ts';
import type { AccountDeps } from '../accounts/deps.ts';
import { createAccount } from '../accounts/manage-accounts.ts';
import { kindOfPrincipal, principalIdSchema, type UserGroup } from '../definitions/governance.ts';
import { badRequest, DoguError, notFound } from '../errors.ts';
import type { IdentityStore } from '../identity/model.ts';
import type { Membership, Principal, PrincipalKind, User } from '../model.ts';
import type { Clock, Coordination, IdGenerator, Store } from '../ports.ts';
import type { Role } from '../roles.ts';
import { authorize } from './access.ts';
import { underLease } from './lease.ts';
import { effectiveRole } from './resolve-membership.ts';
import { requireAdminToTouchAdmin } from './user-groups.ts';

export interface MembersDeps {
  store: Store;
  identities: IdentityStore;
  coordination: Coordination;
  clock: Clock;
  ids: IdGenerator;
}

export interface MemberView {
  principalId: string;
  kind: PrincipalKind;
  /** When the user or service account record exists (`<name>@<project>.sa.dogu` for a service account). */
  email?: string;
  name?: string;
  /** The direct membership's role; absent when the principal belongs only through groups. */
  role?: Role;
  groups: { id: string; name: string; role?: Role }[];
  /** What authorization uses: the highest of `role` and the groups' roles. */
  effectiveRole?: Role;
}

export async function listMembers(deps: MembersDeps, principal: Principal, projectId: string) {
  await authorize(deps.store, principal, projectId, 'view');
  const [memberships, groups] = await Promise.all([
    deps.store.listMemberships(projectId),
    deps.store.listUserGroups(projectId),
  ]);
  const principalIds = new Set([
    ...memberships.map((m) => m.principalId),
    ...groups.flatMap((g) => g.members),
  ]);
  const [users, accounts] = await Promise.all([
    deps.store.getUsers([...principalIds].filter((id) => kindOfPrincipal(id) === 'user')),
    // A service account is shown by its address and name, not its id (it belongs to this project).
    [...principalIds].some((id) => kindOfPrincipal(id) === 'service_account')
      ? deps.identities.listServiceAccounts(projectId)
      : Promise.resolve([]),
  ]);
  const usersById = new Map<string, Named>([...users, ...accounts].map((u) => [u.id, u]));
  const roleOf = new Map(memberships.map((m) => [m.principalId, m.role]));
  return [...principalIds].sort().map((principalId) =>
    memberView(
      principalId,
      roleOf.get(principalId),
      groups.filter((g) => g.members.includes(principalId)),
      usersById.get(principalId),
    ),
  );
}

export async function getMember(
  deps: MembersDeps,
  principal: Principal,
  projectId: string,
  principalId: string,
) {
  await authorize(deps.store, principal, projectId, 'view');
  const [membership, groups, named] = await Promise.all([
    deps.store.getMembership(projectId, principalId),
    deps.store.listUserGroupsOfPrincipal(projectId, principalId),
    kindOfPrincipal(principalId) === 'user'
      ? deps.store.getUsers([principalId]).then((users) => users[0])
      : deps.identities.getServiceAccount(projectId, principalId),
  ]);
  if (!membership && groups.length === 0) throw notFound('Member', principalId);
  return memberView(principalId, membership?.role, groups, named);
}

/** Adds the principal with `role` or changes its role. */
export async function setMemberRole(
  deps: MembersDeps,
  principal: Principal,
  projectId: string,
  principalId: string,
  role: Role,
): Promise<{ member: MemberView; created: boolean }> {
  const caller = await authorize(deps.store, principal, projectId, 'manage_members');
  if (!principalIdSchema.safeParse(principalId).success) {
    throw badRequest(`'${principalId}' is neither a user id 'usr_…' nor a service account id 'sa_…'.`);
  }
  return applyRole(
    deps,
    caller,
    principalId,
    role,
    await requireExistingPrincipal(deps, projectId, principalId),
  );
}

/**
 * The user with this e-mail address joins with `role` (or gets it). An address Dogu does not know
 * yet is an invitation when an account administrator adds it (decision 0028): the person's account
 * is created as invited (their link is sent when notifications are configured, and an administrator
 * can issue a new one under Users), and their first sign-in is that user, already a member. Anyone
 * else gets 404 naming the address.
 */
export async function addMemberByEmail(
  deps: MembersDeps & AccountDeps,
  principal: Principal,
  projectId: string,
  email: string,
  role: Role,
) {
  const caller = await authorize(deps.store, principal, projectId, 'manage_members');
  const known = await deps.store.getUserByEmail(email);
  if (known) return applyRole(deps, caller, known.id, role, known);
  if (!(await isAccountAdministrator(deps, principal))) {
    throw new DoguError(
      'not_found',
      `No user with the e-mail address '${email}' was found. An account administrator can add it here, which invites the person.`,
    );
  }
  await createAccount(deps, principal, { email: email.toLowerCase() });
  const invited = await deps.store.getUserByEmail(email);
  if (!invited) throw notFound('User', email);
  return applyRole(deps, caller, invited.id, role, invited);
}

async function isAccountAdministrator(deps: AccountDeps, principal: Principal): Promise<boolean> {
  try {
    await requireAccountAdministrator(deps, principal);
    return true;
  } catch {
    return false;
  }
}

async function applyRole(
  deps: MembersDeps,
  caller: Membership,
  principalId: string,
  role: Role,
  user: Named | undefined,
): Promise<{ member: MemberView; created: boolean }> {
  const { projectId } = caller;
  const created = await underMembersLease(deps, projectId, async () => {
    const memberships = await deps.store.listMemberships(projectId);
    const current = memberships.find((m) => m.principalId === principalId);
    if (current?.role === role) return false;
    requireAdminToTouchAdmin(caller, [current?.role, role]);
    if (current?.role === 'admin') requireAnotherAdmin(memberships, projectId, principalId);
    await deps.store.putMembership({ projectId, principalId, role });
    return current === undefined;
  });
  const groups = await deps.store.listUserGroupsOfPrincipal(projectId, principalId);
  return { member: memberView(principalId, role, groups, user), created };
}

/**
 * Removes the direct membership and takes the principal out of every user group of the project,
 * so it loses access at once (also through groups).
 */
export async function removeMember(
  deps: MembersDeps,
  principal: Principal,
  projectId: string,
  principalId: string,
) {
  const caller = await authorize(deps.store, principal, projectId, 'manage_members');
  // Checked before anything changes, so a refusal leaves everything as it was.
  const groups = await deps.store.listUserGroupsOfPrincipal(projectId, principalId);
  requireAdminToTouchAdmin(
    caller,
    groups.map((g) => g.role),
  );
  const hadMembership = await underMembersLease(deps, projectId, async () => {
    const memberships = await deps.store.listMemberships(projectId);
    const current = memberships.find((m) => m.principalId === principalId);
    if (!current) return false;
    requireAdminToTouchAdmin(caller, [current.role]);
    if (current.role === 'admin') requireAnotherAdmin(memberships, projectId, principalId);
    await deps.store.deleteMembership(projectId, principalId);
    return true;
  });
  const leftGroups = await leaveUserGroups(deps, groups, principalId);
  if (!hadMembership && leftGroups === 0) throw notFound('Member', principalId);
}

async function leaveUserGroups(deps: MembersDeps, groups: readonly UserGroup[], principalId: string) {
  let left = 0;
  for (const group of groups) {
    // A concurrent edit of the group makes the save fail: re-read and try again.
    for (let current: typeof group | undefined = group, attempt = 0; current; attempt++) {
      if (!current.members.includes(principalId)) break;
      const saved = await deps.store.saveUserGroup(
        {
          ...current,
          members: current.members.filter((m) => m !== principalId),
          version: current.version + 1,
          updatedAt: deps.clock.now().toISOString(),
        },
        current.version,
      );
      if (saved) {
        left++;
        break;
      }
      if (attempt >= 5) throw concurrentChange(`user group '${group.id}'`);
      current = await deps.store.getUserGroup(group.projectId, group.id);
    }
  }
  return left;
}

/** What a member is shown by: a user's or a service account's address and name. */
type Named = Pick<User, 'email' | 'name'>;

function memberView(principalId: string, role: Role | undefined, groups: MemberView['groups'], user?: Named) {
  const effective = effectiveRole(
    role,
    groups.map((g) => g.role),
  );
  const view: MemberView = {
    principalId,
    kind: kindOfPrincipal(principalId),
    ...(user ? { email: user.email, name: user.name } : {}),
    ...(role ? { role } : {}),
    groups: groups.map((g) => ({ id: g.id, name: g.name, ...(g.role ? { role: g.role } : {}) })),
    ...(effective ? { effectiveRole: effective } : {}),
  };
  return view;
}

/** Users must exist; service accounts must exist in this project (they belong to one project). */
async function requireExistingPrincipal(
  { store, identities }: Pick<MembersDeps, 'store' | 'identities'>,
  projectId: string,
  principalId: string,
): Promise<Named> {
  if (kindOfPrincipal(principalId) === 'service_account') {
    const account = await identities.getServiceAccount(projectId, principalId);
    if (!account) throw notFound('Service account', principalId);
    return account;
  }
  const [user] = await store.getUsers([principalId]);
  if (!user) throw notFound('User', principalId);
  return user;
}

function requireAnotherAdmin(memberships: readonly Membership[], projectId: string, principalId: string) {
  const others = memberships.filter((m) => m.role === 'admin' && m.principalId !== principalId);
  if (others.length === 0) {
    throw new DoguError(
      'state_conflict',
      `Removing or demoting '${principalId}' would leave the project '${projectId}' without an administrator.`,
    );
  }
}

const concurrentChange = (what: string) =>
  new DoguError('state_conflict', `The ${what} was changed by someone else at the same time; try again.`);

/**
 * Runs `work` holding the project's members lease, so the admin count it reads is still true when it
 * writes. Waits a little for a concurrent holder, then gives up with 409.
 */
function underMembersLease<T>(deps: MembersDeps, projectId: string, work: () => Promise<T>): Promise<T> {
  return underLease(deps, `members:${projectId}`, `membership of project '${projectId}'`, work);
}
