/** Builds Services.oidc from the environment; both runtimes call it. */
import { readFileSync } from 'node:fs';
import { BindingChecker } from '../../domain/identity/access-tokens.ts';
import { matchesBoundClaims } from '../../domain/identity/bound-claims.ts';
import type { IdentityStore } from '../../domain/identity/model.ts';
import {
  accessTokenSecondsFrom,
  type BoundClaimsMatcher,
  type OidcServices,
} from '../../domain/identity/token-exchange.ts';
import type { Clock } from '../../domain/ports.ts';
import { OidcIdTokenVerifier } from './id-token-verifier.ts';

export function createOidcServices(options: {
  identities: IdentityStore;
  clock: Clock;
  env: Record<string, string | undefined>;
  matchBoundClaims?: BoundClaimsMatcher;
}): OidcServices {
  const { env, clock, identities } = options;
  const extraCaFile = env.DOGU_OIDC_EXTRA_CA_FILE;
  const extraCa = extraCaFile ? readFileSync(extraCaFile, 'utf8') : undefined;
  // How long a revoked service-account token may still work on a container that checked it just before.
  const bindingCacheMs = Number(env.DOGU_SERVICE_ACCOUNT_CACHE_MS ?? 5_000);
  return {
    identities,
    verifier: new OidcIdTokenVerifier({ clock, ...(extraCa ? { extraCa } : {}) }),
    matchBoundClaims: options.matchBoundClaims ?? matchesBoundClaims,
    bindings: new BindingChecker(identities, Number.isFinite(bindingCacheMs) ? bindingCacheMs : 5_000, clock),
    accessTokenSeconds: accessTokenSecondsFrom(env.DOGU_ACCESS_TOKEN_SECONDS),
  };
}
