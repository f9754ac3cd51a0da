/**
 * Service accounts (spec 2.9): identities of workloads that belong to one project, join it (and
 * its user groups) like users, and run with their own role. Managing them needs `manage_members`,
 * since creating one with a role is adding a member; reading them needs `view`.
 *
 * Writes to one account and its trust policies run under the account's lease, so a revocation or a
 * policy change is never lost to a concurrent save (docs/data-model.md, "Service accounts").
 */
import type { ServiceAccountCreateInput, ServiceAccountUpdateInput } from '../definitions/service-account.ts';
import { DoguError, notFound } from '../errors.ts';
import type { IdentityStore, ServiceAccount } from '../identity/model.ts';
import type { Principal } from '../model.ts';
import { AlreadyExistsError, type Clock, type Coordination, type IdGenerator, type Store } from '../ports.ts';
import type { Role } from '../roles.ts';
import { authorize } from './access.ts';
import { underLease } from './lease.ts';
import { removeMember } from './members.ts';
import { requireAdminToTouchAdmin } from './user-groups.ts';

export interface ServiceAccountsDeps {
  store: Store;
  identities: IdentityStore;
  coordination: Coordination;
  clock: Clock;
  ids: IdGenerator;
}

/** The account as the API shows it: with its direct role in the project, if it has one. */
export type ServiceAccountView = ServiceAccount & { role?: Role };

export const serviceAccountEmail = (name: string, projectId: string) => `${name}@${projectId}.sa.dogu`;

/** Runs `work` holding the account's lease (shared with its trust policies). */
export const underAccountLease = <T>(
  deps: Pick<ServiceAccountsDeps, 'coordination' | 'clock'>,
  projectId: string,
  serviceAccountId: string,
  work: () => Promise<T>,
) =>
  underLease(
    deps,
    `service-account:${projectId}:${serviceAccountId}`,
    `service account '${serviceAccountId}'`,
    work,
  );

export async function requireServiceAccount(
  identities: Pick<IdentityStore, 'getServiceAccount'>,
  projectId: string,
  serviceAccountId: string,
) {
  const account = await identities.getServiceAccount(projectId, serviceAccountId);
  if (!account) throw notFound('Service account', serviceAccountId);
  return account;
}

const withRole = (account: ServiceAccount, role: Role | undefined): ServiceAccountView =>
  role ? { ...account, role } : account;

export async function createServiceAccount(
  deps: ServiceAccountsDeps,
  principal: Principal,
  projectId: string,
  input: ServiceAccountCreateInput,
): Promise<ServiceAccountView> {
  const caller = await authorize(deps.store, principal, projectId, 'manage_members');
  // Same rule as the members API: only an administrator hands out 'admin'.
  if (input.role) requireAdminToTouchAdmin(caller, [input.role]);
  const now = deps.clock.now().toISOString();
  const account: ServiceAccount = {
    projectId,
    id: deps.ids.next('sa'),
    email: serviceAccountEmail(input.name, projectId),
    name: input.name,
    ...(input.description !== undefined ? { description: input.description } : {}),
    createdAt: now,
    updatedAt: now,
    tokenGeneration: 1,
  };
  try {
    await deps.identities.saveServiceAccount(account, true);
  } catch (error) {
    if (!(error instanceof AlreadyExistsError)) throw error;
    throw new DoguError(
      'state_conflict',
      `A service account named '${input.name}' exists already in project '${projectId}'.`,
      { errors: [{ pointer: '#/name', detail: `'${account.email}' is taken` }] },
    );
  }
  if (input.role) await deps.store.putMembership({ projectId, principalId: account.id, role: input.role });
  return withRole(account, input.role);
}

export async function listServiceAccounts(
  deps: ServiceAccountsDeps,
  principal: Principal,
  projectId: string,
): Promise<ServiceAccountView[]> {
  await authorize(deps.store, principal, projectId, 'view');
  const [accounts, memberships] = await Promise.all([
    deps.identities.listServiceAccounts(projectId),
    deps.store.listMemberships(projectId),
  ]);
  const roleOf = new Map(memberships.map((m) => [m.principalId, m.role]));
  return accounts.map((account) => withRole(account, roleOf.get(account.id)));
}

export async function getServiceAccount(
  deps: ServiceAccountsDeps,
  principal: Principal,
  projectId: string,
  serviceAccountId: string,
): Promise<ServiceAccountView> {
  await authorize(deps.store, principal, projectId, 'view');
  const [account, membership] = await Promise.all([
    requireServiceAccount(deps.identities, projectId, serviceAccountId),
    deps.store.getMembership(projectId, serviceAccountId),
  ]);
  return withRole(account, membership?.role);
}

/**
 * Replaces description and disabled. The name cannot change: the e-mail address, which callers
 * name in token exchanges, is derived from it. Disabling also revokes the tokens issued so far, so
 * enabling again does not bring them back.
 */
export async function updateServiceAccount(
  deps: ServiceAccountsDeps,
  principal: Principal,
  projectId: string,
  serviceAccountId: string,
  input: ServiceAccountUpdateInput,
): Promise<ServiceAccountView> {
  await authorize(deps.store, principal, projectId, 'manage_members');
  const account = await underAccountLease(deps, projectId, serviceAccountId, async () => {
    const current = await requireServiceAccount(deps.identities, projectId, serviceAccountId);
    if (input.name !== undefined && input.name !== current.name) {
      throw new DoguError('invalid_definition', 'The name of a service account cannot change.', {
        errors: [
          {
            pointer: '#/name',
            detail: `cannot change from '${current.name}': the e-mail address is derived from it; create a new service account instead`,
          },
        ],
      });
    }
    const disabled = input.disabled === true;
    const { description: _description, disabled: _disabled, ...rest } = current;
    const updated: ServiceAccount = {
      ...rest,
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(disabled ? { disabled } : {}),
      tokenGeneration: current.tokenGeneration + (disabled && !current.disabled ? 1 : 0),
      updatedAt: deps.clock.now().toISOString(),
    };
    await deps.identities.saveServiceAccount(updated, false);
    return updated;
  });
  return withRole(account, (await deps.store.getMembership(projectId, serviceAccountId))?.role);
}

/** Every access token issued for the account so far stops working (the next check sees it). */
export async function revokeServiceAccountTokens(
  deps: ServiceAccountsDeps,
  principal: Principal,
  projectId: string,
  serviceAccountId: string,
): Promise<ServiceAccount> {
  await authorize(deps.store, principal, projectId, 'manage_members');
  return underAccountLease(deps, projectId, serviceAccountId, async () => {
    const current = await requireServiceAccount(deps.identities, projectId, serviceAccountId);
    const revoked: ServiceAccount = {
      ...current,
      tokenGeneration: current.tokenGeneration + 1,
      updatedAt: deps.clock.now().toISOString(),
    };
    await deps.identities.saveServiceAccount(revoked, false);
    return revoked;
  });
}

/**
 * Deletes the account with its trust policies, its membership and its place in user groups. The
 * membership goes first, through the members rules: deleting the last administrator is refused
 * before anything changed. Its tokens fail from then on because the account no longer exists.
 */
export async function deleteServiceAccount(
  deps: ServiceAccountsDeps,
  principal: Principal,
  projectId: string,
  serviceAccountId: string,
): Promise<void> {
  await authorize(deps.store, principal, projectId, 'manage_members');
  await requireServiceAccount(deps.identities, projectId, serviceAccountId);
  try {
    await removeMember(deps, principal, projectId, serviceAccountId);
  } catch (error) {
    // Not a member (directly or through a group): nothing to remove.
    if (!(error instanceof DoguError && error.code === 'not_found')) throw error;
  }
  await underAccountLease(deps, projectId, serviceAccountId, async () => {
    for (const policy of await deps.identities.listTrustPolicies(projectId, serviceAccountId)) {
      await deps.identities.deleteTrustPolicy(projectId, policy.id);
    }
    if (!(await deps.identities.deleteServiceAccount(projectId, serviceAccountId))) {
      throw notFound('Service account', serviceAccountId);
    }
  });
}
