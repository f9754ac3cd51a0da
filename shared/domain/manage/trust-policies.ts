/**
 * Trust policies of a service account (spec 2.9, 5.1): which external ID tokens (issuer, audience,
 * bound claims) may be exchanged for the account's access tokens. The client names each policy
 * (`github-main`), so applying the same file twice is idempotent; ids are unique per project.
 *
 * Every change gives the policy a new `generation`, which access tokens carry: a token issued under
 * an older generation is revoked. Generations start from the clock (epoch milliseconds), so a policy
 * deleted and created again under the same id never repeats a generation of its former self.
 */

import { resourceIdSchema } from '../definitions/data-source.ts';
import type { TrustPolicyInput } from '../definitions/service-account.ts';
import { badRequest, DoguError, notFound } from '../errors.ts';
import type { TrustPolicy } from '../identity/model.ts';
import type { Principal } from '../model.ts';
import { authorize } from './access.ts';
import { requireServiceAccount, type ServiceAccountsDeps, underAccountLease } from './service-accounts.ts';

export type TrustPoliciesDeps = Pick<ServiceAccountsDeps, 'store' | 'identities' | 'coordination' | 'clock'>;

/** Oldest first, the order in which the token exchange tries them. */
export async function listTrustPolicies(
  deps: TrustPoliciesDeps,
  principal: Principal,
  projectId: string,
  serviceAccountId: string,
): Promise<TrustPolicy[]> {
  await authorize(deps.store, principal, projectId, 'view');
  await requireServiceAccount(deps.identities, projectId, serviceAccountId);
  return deps.identities.listTrustPolicies(projectId, serviceAccountId);
}

export async function getTrustPolicy(
  deps: TrustPoliciesDeps,
  principal: Principal,
  projectId: string,
  serviceAccountId: string,
  policyId: string,
): Promise<TrustPolicy> {
  await authorize(deps.store, principal, projectId, 'view');
  const policy = await deps.identities.getTrustPolicy(projectId, policyId);
  if (!policy || policy.serviceAccountId !== serviceAccountId) throw notFound('Trust policy', policyId);
  return policy;
}

/** Creates or replaces; saving the same content again changes nothing (and revokes nothing). */
export async function putTrustPolicy(
  deps: TrustPoliciesDeps,
  principal: Principal,
  projectId: string,
  serviceAccountId: string,
  policyId: string,
  input: TrustPolicyInput,
): Promise<{ policy: TrustPolicy; created: boolean }> {
  await authorize(deps.store, principal, projectId, 'manage_members');
  if (!resourceIdSchema.safeParse(policyId).success) {
    throw badRequest(
      `'${policyId}' is not a valid trust policy id: 1-63 lower-case letters, digits, - or _, starting with a letter or digit.`,
    );
  }
  if (input.id !== undefined && input.id !== policyId) {
    throw badRequest(`The body's id '${input.id}' differs from the path's '${policyId}'.`);
  }
  return underAccountLease(deps, projectId, serviceAccountId, async () => {
    await requireServiceAccount(deps.identities, projectId, serviceAccountId);
    const existing = await deps.identities.getTrustPolicy(projectId, policyId);
    if (existing && existing.serviceAccountId !== serviceAccountId) {
      throw new DoguError(
        'state_conflict',
        `Trust policy '${policyId}' belongs to service account '${existing.serviceAccountId}'; policy ids are unique per project.`,
      );
    }
    const content = { issuer: input.issuer, audience: input.audience, boundClaims: input.boundClaims };
    if (existing && sameContent(existing, content)) return { policy: existing, created: false };
    const now = deps.clock.now();
    const policy: TrustPolicy = {
      projectId,
      serviceAccountId,
      id: policyId,
      ...content,
      createdAt: existing?.createdAt ?? now.toISOString(),
      updatedAt: now.toISOString(),
      generation: Math.max((existing?.generation ?? 0) + 1, now.getTime()),
    };
    await deps.identities.saveTrustPolicy(policy);
    return { policy, created: !existing };
  });
}

export async function deleteTrustPolicy(
  deps: TrustPoliciesDeps,
  principal: Principal,
  projectId: string,
  serviceAccountId: string,
  policyId: string,
): Promise<void> {
  await authorize(deps.store, principal, projectId, 'manage_members');
  await underAccountLease(deps, projectId, serviceAccountId, async () => {
    const existing = await deps.identities.getTrustPolicy(projectId, policyId);
    if (!existing || existing.serviceAccountId !== serviceAccountId) throw notFound('Trust policy', policyId);
    await deps.identities.deleteTrustPolicy(projectId, policyId);
  });
}

function sameContent(policy: TrustPolicy, content: Pick<TrustPolicy, 'issuer' | 'audience' | 'boundClaims'>) {
  return (
    policy.issuer === content.issuer &&
    policy.audience === content.audience &&
    policy.boundClaims.length === content.boundClaims.length &&
    policy.boundClaims.every(
      (rule, i) =>
        rule.key === content.boundClaims[i]!.key && rule.pattern === content.boundClaims[i]!.pattern,
    )
  );
}
