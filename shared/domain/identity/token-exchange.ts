/**
 * Token exchange (spec 4.1, RFC 8693): an external OIDC ID token that a trust
 * policy accepts becomes a Dogu access token of the policy's service account.
 * Every refusal is a TokenEndpointError carrying the exact OAuth error of spec
 * 7.1; its description is a fixed printable-ASCII text (no quote, no
 * backslash), never something taken from the request.
 */
import type { AuditLog, RequestOrigin } from '../audit.ts';
import type { Principal } from '../model.ts';
import type { Clock, IdGenerator } from '../ports.ts';
import { type AccessTokenIssuer, type BindingChecker, bindingClaims } from './access-tokens.ts';
import type { BoundClaim, IdentityStore, ServiceAccount, TrustPolicy } from './model.ts';
import { illTypedRegisteredClaim } from './registered-claims.ts';

export const tokenExchangeGrantType = 'urn:ietf:params:oauth:grant-type:token-exchange';
export const jwtTokenType = 'urn:ietf:params:oauth:token-type:jwt';
export const accessTokenType = 'urn:ietf:params:oauth:token-type:access_token';

/** ID tokens are a few KB; anything bigger is not one (and is not worth parsing). */
export const maxSubjectTokenBytes = 16 * 1024;
/** Access tokens never live longer than this, whatever is configured (docs/decisions/0013). */
export const maxAccessTokenSeconds = 3600;
/** How long a client should wait after temporarily_unavailable. */
export const idpRetryAfterSeconds = 30;

export type TokenErrorCode = 'invalid_request' | 'invalid_grant' | 'server_error' | 'temporarily_unavailable';

export class TokenEndpointError extends Error {
  override name = 'TokenEndpointError';
  constructor(
    readonly status: 400 | 415 | 422 | 500 | 503,
    readonly error: TokenErrorCode,
    /** Fixed text: printable ASCII without `"` or `\`. */
    readonly description: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(description);
  }
}

export const invalidGrant = (description: string) =>
  new TokenEndpointError(400, 'invalid_grant', description);

/** The token's signature, issuer or time claims are wrong (the adapter says which in `reason`, for logs). */
export class IdTokenRejectedError extends Error {
  override name = 'IdTokenRejectedError';
  constructor(
    /** One of the fixed descriptions below: it is sent to the client. */
    readonly description: string,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/** The IdP's discovery document or keys cannot be fetched right now. */
export class IdpUnavailableError extends Error {
  override name = 'IdpUnavailableError';
}

export const idTokenDescriptions = {
  malformed: 'The subject token is not a well-formed JWT.',
  tooLarge: 'The subject token is too large.',
  expired: 'The subject token has expired or is not yet valid.',
  signature: 'The subject token signature could not be verified.',
  claims: 'The subject token claims are invalid.',
  idp: 'The identity provider of the subject token is not usable.',
  noPolicy: 'No trust policy accepts the subject token.',
} as const;

export type IdTokenClaims = Record<string, unknown>;

/** Port: validates an external ID token against an issuer's published keys (shared/adapters/oidc). */
export interface IdTokenVerifier {
  /** The unverified `iss` of a well-formed compact JWT: it only selects candidate policies. */
  peekIssuer(token: string): string | undefined;
  /**
   * Checks signature, `iss` (exactly `issuer`), that `aud` holds one of `audiences`, and the time
   * claims. Throws IdTokenRejectedError or IdpUnavailableError.
   */
  verify(token: string, issuer: string, audiences: readonly string[]): Promise<IdTokenClaims>;
}

/** The bound-claim rule of trust policies: `matchesBoundClaims` in bound-claims.ts. */
export type BoundClaimsMatcher = (claims: IdTokenClaims, boundClaims: readonly BoundClaim[]) => boolean;

export interface TokenExchangeDeps {
  identities: IdentityStore;
  verifier: IdTokenVerifier;
  matchBoundClaims: BoundClaimsMatcher;
  tokens: AccessTokenIssuer;
  /** Already capped to maxAccessTokenSeconds. */
  accessTokenSeconds: number;
  audit: AuditLog;
  clock: Clock;
  ids: IdGenerator;
}

export interface AcceptedIdToken {
  account: ServiceAccount;
  policy: TrustPolicy;
  claims: IdTokenClaims;
}

const audiencesOf = (claims: IdTokenClaims): string[] => {
  const { aud } = claims;
  if (typeof aud === 'string') return [aud];
  return Array.isArray(aud) ? aud.filter((value): value is string => typeof value === 'string') : [];
};

/**
 * The first trust policy (oldest first) whose audience is in `aud` and whose bound claims all match,
 * among the policies of `iss`, narrowed to one account or one project when asked.
 */
export async function acceptIdToken(
  token: string,
  deps: Pick<TokenExchangeDeps, 'identities' | 'verifier' | 'matchBoundClaims'>,
  scope: { serviceAccountEmail?: string; projectId?: string } = {},
): Promise<AcceptedIdToken> {
  if (Buffer.byteLength(token) > maxSubjectTokenBytes) throw invalidGrant(idTokenDescriptions.tooLarge);
  const issuer = deps.verifier.peekIssuer(token);
  if (issuer === undefined) throw invalidGrant(idTokenDescriptions.malformed);
  // Only issuers someone registered are ever contacted: the token alone cannot make us fetch a URL.
  let candidates = await deps.identities.listTrustPoliciesByIssuer(issuer);
  if (scope.projectId !== undefined) candidates = candidates.filter((p) => p.projectId === scope.projectId);
  if (scope.serviceAccountEmail !== undefined) {
    const named = await deps.identities.getServiceAccountByEmail(scope.serviceAccountEmail);
    candidates = named
      ? candidates.filter((p) => p.projectId === named.projectId && p.serviceAccountId === named.id)
      : [];
  }
  if (candidates.length === 0) throw invalidGrant(idTokenDescriptions.noPolicy);

  let claims: IdTokenClaims;
  try {
    const audiences =
      candidates.length === 1 ? [candidates[0]!.audience] : [...new Set(candidates.map((p) => p.audience))];
    claims = await deps.verifier.verify(token, issuer, audiences);
  } catch (error) {
    if (error instanceof IdTokenRejectedError) throw invalidGrant(error.description);
    if (error instanceof IdpUnavailableError) {
      throw new TokenEndpointError(
        503,
        'temporarily_unavailable',
        'The identity provider of the subject token cannot be reached; retry later.',
        idpRetryAfterSeconds,
      );
    }
    throw error;
  }
  // Bound claims are matched only against a token whose registered claims have their types.
  if (illTypedRegisteredClaim(claims) !== undefined) throw invalidGrant(idTokenDescriptions.claims);
  const audiences = audiencesOf(claims);
  for (const policy of candidates) {
    if (!audiences.includes(policy.audience) || !deps.matchBoundClaims(claims, policy.boundClaims)) continue;
    const account = await deps.identities.getServiceAccount(policy.projectId, policy.serviceAccountId);
    // A disabled or deleted account's policies accept nothing.
    if (account && !account.disabled) return { account, policy, claims };
  }
  throw invalidGrant(idTokenDescriptions.noPolicy);
}

export const principalOf = (account: ServiceAccount): Principal => ({
  kind: 'service_account',
  id: account.id,
  email: account.email,
  name: account.name,
});

export interface TokenResponse {
  access_token: string;
  issued_token_type: typeof accessTokenType;
  token_type: 'Bearer';
  expires_in: number;
}

const invalidRequest = (status: 400 | 422, description: string) =>
  new TokenEndpointError(status, 'invalid_request', description);

/** The body as parsed JSON; Content-Type and JSON syntax are the HTTP layer's. */
export async function exchangeToken(
  body: unknown,
  deps: TokenExchangeDeps,
  origin: RequestOrigin,
): Promise<TokenResponse> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalidRequest(400, 'The body must be a JSON object.');
  }
  const fields = body as Record<string, unknown>;
  if (fields.grant_type !== tokenExchangeGrantType) {
    throw invalidRequest(422, `grant_type must be ${tokenExchangeGrantType}.`);
  }
  if (fields.subject_token_type !== jwtTokenType) {
    throw invalidRequest(422, `subject_token_type must be ${jwtTokenType}.`);
  }
  const { subject_token: subjectToken, service_account_email: email } = fields;
  if (typeof subjectToken !== 'string' || subjectToken === '') {
    throw invalidRequest(422, 'subject_token is required and must be a string.');
  }
  if (email !== undefined && typeof email !== 'string') {
    throw invalidRequest(422, 'service_account_email must be a string.');
  }

  const { account, policy, claims } = await acceptIdToken(
    subjectToken,
    deps,
    email === undefined ? {} : { serviceAccountEmail: email },
  );
  const issued = await deps.tokens.issue(
    principalOf(account),
    deps.accessTokenSeconds,
    bindingClaims({
      projectId: account.projectId,
      serviceAccountId: account.id,
      trustPolicyId: policy.id,
      tokenGeneration: account.tokenGeneration,
      policyGeneration: policy.generation,
    }),
  );
  await deps.audit.append({
    id: deps.ids.next('aud'),
    projectId: account.projectId,
    at: deps.clock.now().toISOString(),
    actor: { kind: 'service_account', id: account.id, email: account.email },
    origin,
    event: 'token.exchange',
    target: { type: 'service_account', id: account.id },
    outcome: 'succeeded',
    details: {
      trustPolicyId: policy.id,
      issuer: policy.issuer,
      ...(typeof claims.sub === 'string' ? { subject: claims.sub } : {}),
    },
  });
  return {
    access_token: issued.token,
    issued_token_type: accessTokenType,
    token_type: 'Bearer',
    expires_in: deps.accessTokenSeconds,
  };
}

/** DOGU_ACCESS_TOKEN_SECONDS, defaulting to and never above one hour, never below one minute. */
export function accessTokenSecondsFrom(value: string | undefined): number {
  const configured = Number(value ?? maxAccessTokenSeconds);
  if (!Number.isFinite(configured)) return maxAccessTokenSeconds;
  return Math.max(60, Math.min(Math.floor(configured), maxAccessTokenSeconds));
}

/** What the runtime provides for token exchange and service-account tokens (Services.oidc). */
export interface OidcServices {
  identities: IdentityStore;
  verifier: IdTokenVerifier;
  matchBoundClaims: BoundClaimsMatcher;
  bindings: BindingChecker;
  /** Already capped: accessTokenSecondsFrom(). */
  accessTokenSeconds: number;
}
