/**
 * Who a bearer token on the public API stands for: a Dogu access token (access-tokens.ts) or, where
 * the project allows it, an external ID token accepted by the token exchange's rules
 * (token-exchange.ts). Kept apart from both so that neither imports the other.
 */
import { DoguError, unauthorized } from '../errors.ts';
import type { Principal } from '../model.ts';
import type { DefinitionReader } from '../ports.ts';
import { type AccessTokenVerifier, type BindingChecker, bindingFrom } from './access-tokens.ts';
import type { IdentityStore } from './model.ts';
import {
  acceptIdToken,
  type BoundClaimsMatcher,
  type IdTokenVerifier,
  principalOf,
  TokenEndpointError,
} from './token-exchange.ts';

export interface BearerDeps {
  tokens: AccessTokenVerifier;
  definitions: Pick<DefinitionReader, 'getProject'>;
  identities: IdentityStore;
  bindings: BindingChecker;
  verifier: IdTokenVerifier;
  matchBoundClaims: BoundClaimsMatcher;
}

/**
 * The principal of `Authorization: Bearer <token>` on the public API: a Dogu token (user, or a
 * service account whose binding is current), or, where the URL's project allows it (spec 5.1
 * direct variant, `Project.directIdTokens`), an external ID token accepted by that project's policies.
 */
export async function principalOfBearer(
  token: string,
  projectId: string | undefined,
  deps: BearerDeps,
): Promise<Principal> {
  if (projectId !== undefined && deps.verifier.peekIssuer(token) !== dogUIssuer) {
    const project = await deps.definitions.getProject(projectId);
    if (project?.directIdTokens === true) return principalOfIdToken(token, projectId, deps);
  }
  const { principal, claims } = await deps.tokens.verifyWithClaims(token);
  if (principal.kind !== 'service_account') return principal;
  const binding = bindingFrom(principal, claims);
  if (!binding || !(await deps.bindings.isCurrent(binding))) {
    throw unauthorized('The access token has been revoked.');
  }
  return principal;
}

/** The `iss` of Dogu's own tokens (shared/adapters/auth/token-service.ts). */
const dogUIssuer = 'dogu';

async function principalOfIdToken(token: string, projectId: string, deps: BearerDeps): Promise<Principal> {
  try {
    const { account } = await acceptIdToken(token, deps, { projectId });
    return principalOf(account);
  } catch (error) {
    if (!(error instanceof TokenEndpointError)) throw error;
    if (error.error === 'temporarily_unavailable') {
      throw new DoguError('service_unavailable', error.description, {
        headers: { 'retry-after': String(error.retryAfterSeconds ?? 30) },
      });
    }
    throw unauthorized(`The bearer token is not accepted: ${error.description}`);
  }
}
