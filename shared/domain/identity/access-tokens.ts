/**
 * Access tokens of service accounts (spec 5.1): Dogu tokens that also name
 * the account, the trust policy and both generations they were issued under.
 * Each use checks that the account and the policy still exist with those
 * generations (briefly cached), so deleting or disabling the account, bumping
 * its tokenGeneration, or changing or deleting the policy revokes the token.
 */
import type { Principal } from '../model.ts';
import type { Clock } from '../ports.ts';
import type { IdentityStore } from './model.ts';

export interface ServiceAccountBinding {
  projectId: string;
  serviceAccountId: string;
  trustPolicyId: string;
  tokenGeneration: number;
  policyGeneration: number;
}

export type TokenClaims = Record<string, string | number>;

/** Port: the Dogu token service (shared/adapters/auth/token-service.ts). */
export interface AccessTokenIssuer {
  issue(
    principal: Principal,
    lifetimeSeconds: number,
    claims?: TokenClaims,
  ): Promise<{ token: string; expiresAt: number }>;
}

export interface AccessTokenVerifier {
  /** Rejects with DoguError `unauthorized`; `claims` are the extra claims given at issue. */
  verifyWithClaims(token: string): Promise<{ principal: Principal; claims: Record<string, unknown> }>;
}

export const bindingClaims = (binding: ServiceAccountBinding): TokenClaims => ({
  dpid: binding.projectId,
  dtp: binding.trustPolicyId,
  dtg: binding.tokenGeneration,
  dpg: binding.policyGeneration,
});

/** The binding a service account's token names in its claims; undefined when they name none. */
export function bindingFrom(
  principal: Principal,
  claims: Record<string, unknown>,
): ServiceAccountBinding | undefined {
  const { dpid, dtp, dtg, dpg } = claims;
  if (
    typeof dpid !== 'string' ||
    typeof dtp !== 'string' ||
    typeof dtg !== 'number' ||
    typeof dpg !== 'number'
  ) {
    return undefined;
  }
  return {
    projectId: dpid,
    serviceAccountId: principal.id,
    trustPolicyId: dtp,
    tokenGeneration: dtg,
    policyGeneration: dpg,
  };
}

interface BindingState {
  tokenGeneration: number | undefined;
  policyGeneration: number | undefined;
  checkedAt: number;
}

const maxRemembered = 10_000;

/**
 * Answers "is this binding still current?" from the IdentityStore, remembering answers for `ttlMs`.
 *
 * The rule (docs/authentication.md, "Revocation"): a change to a service account or trust policy
 * applies to token exchanges at once; tokens issued before it stop working within `ttlMs`; tokens
 * issued after it work at once. Generations only grow, so a token newer than the remembered state
 * proves the memory stale: the store is read again rather than refusing a token just exchanged
 * (it was refused for up to 5 s after its policy changed). A token older than the memory is
 * refused from it.
 */
export class BindingChecker {
  private readonly states = new Map<string, BindingState>();

  constructor(
    private readonly identities: IdentityStore,
    /** How long a revocation may take to be noticed; 0 reads the store on every request. */
    private readonly ttlMs: number,
    private readonly clock: Clock,
  ) {}

  async isCurrent(binding: ServiceAccountBinding): Promise<boolean> {
    const remembered = this.remembered(binding);
    const state =
      remembered && !isNewerThan(binding, remembered) ? remembered : await this.readState(binding);
    return (
      state.tokenGeneration === binding.tokenGeneration && state.policyGeneration === binding.policyGeneration
    );
  }

  private remembered(binding: ServiceAccountBinding): BindingState | undefined {
    const known = this.states.get(keyOf(binding));
    return known && this.clock.now().getTime() - known.checkedAt < this.ttlMs ? known : undefined;
  }

  private async readState(binding: ServiceAccountBinding): Promise<BindingState> {
    const key = keyOf(binding);
    const [account, policy] = await Promise.all([
      this.identities.getServiceAccount(binding.projectId, binding.serviceAccountId),
      this.identities.getTrustPolicy(binding.projectId, binding.trustPolicyId),
    ]);
    const state: BindingState = {
      tokenGeneration: account && !account.disabled ? account.tokenGeneration : undefined,
      // A policy moved to another account does not vouch for this one any more.
      policyGeneration:
        policy && policy.serviceAccountId === binding.serviceAccountId ? policy.generation : undefined,
      checkedAt: this.clock.now().getTime(),
    };
    this.states.delete(key);
    if (this.states.size >= maxRemembered) this.states.delete(this.states.keys().next().value!);
    if (this.ttlMs > 0) this.states.set(key, state);
    return state;
  }
}

const keyOf = (binding: ServiceAccountBinding) =>
  `${binding.projectId}/${binding.serviceAccountId}/${binding.trustPolicyId}`;

/**
 * Was the token issued after the remembered state was read? Its generation is higher, or the
 * memory says "gone or disabled" for a token that names a generation (an account enabled again).
 */
function isNewerThan(binding: ServiceAccountBinding, state: BindingState): boolean {
  const newer = (tokens: number, remembered: number | undefined) =>
    remembered === undefined || tokens > remembered;
  return (
    newer(binding.tokenGeneration, state.tokenGeneration) ||
    newer(binding.policyGeneration, state.policyGeneration)
  );
}
