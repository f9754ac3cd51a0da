/**
 * The registered claims of an ID token (RFC 7519 section 4.1) have one type each. A token whose
 * `sub` is an array would otherwise match a bound claim through any one of its elements (arrays
 * match by element for custom claims such as groups), so `["repo:acme/app:ref:refs/heads/main",
 * "anything"]` would pass for the main branch. Such a token is refused whole.
 */
const stringClaims = ['iss', 'sub', 'jti', 'azp', 'nonce'] as const;
const numericDateClaims = ['exp', 'nbf', 'iat', 'auth_time'] as const;

const present = (claims: Record<string, unknown>, name: string) =>
  Object.hasOwn(claims, name) && claims[name] !== undefined;

/** The first registered claim present with the wrong type, or undefined when all are well-typed. */
export function illTypedRegisteredClaim(claims: Record<string, unknown>): string | undefined {
  for (const name of stringClaims) {
    if (present(claims, name) && typeof claims[name] !== 'string') return name;
  }
  for (const name of numericDateClaims) {
    if (present(claims, name) && (typeof claims[name] !== 'number' || !Number.isFinite(claims[name])))
      return name;
  }
  const { aud } = claims;
  const audOk =
    !present(claims, 'aud') ||
    typeof aud === 'string' ||
    (Array.isArray(aud) && aud.every((value) => typeof value === 'string'));
  return audOk ? undefined : 'aud';
}
