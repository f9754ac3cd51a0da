/**
 * The service's own OpenID provider (spec 5.2). It issues short ID tokens
 * that name one project environment, so object storage in other clouds can
 * trust Dogu by federation instead of by long-lived access keys. Nothing here
 * is an authorization server: there is no login and no public route that
 * issues tokens; the storage connectors call `issueStorageIdToken` directly.
 */
import { type CryptoKey, type JWK, SignJWT } from 'jose';
import type { Clock, IdentityTokenSource } from '../ports.ts';

/** RS256: every federation consumer we target (cloud A STS, cloud B workload identity) accepts it. */
export const ownIdpAlgorithm = 'RS256';

/** Cloud A's signed URLs live as long as the credentials bought with this token: spec 8 caps them at 1 hour. */
export const maxStorageIdTokenSeconds = 3600;

/** The key that signs new tokens. */
export interface ActiveSigningKey {
  kid: string;
  key: CryptoKey;
}

/** The key ring, seen from the issuer (implemented in shared/adapters/idp/signing-keys.ts). */
export interface SigningKeyRing {
  current(): Promise<ActiveSigningKey>;
  /** Public keys only: the current key and every retired key whose tokens may still be valid. */
  publicKeys(): Promise<JWK[]>;
}

export interface OwnIdp {
  /**
   * The issuer URL (`iss`, and the base of the discovery document). A function because the
   * embedded runtime learns its own URL only after it starts listening.
   */
  issuer(): string;
  /** The `tenant_subdomain` claim (DOGU_TENANT_SUBDOMAIN, default `local`). */
  tenantSubdomain: string;
  keys: SigningKeyRing;
  clock: Clock;
  /** Lifetime of issued tokens in seconds; capped at `maxStorageIdTokenSeconds`. */
  tokenSeconds: number;
}

export interface StorageIdTokenRequest {
  projectId: string;
  environmentId: string;
  /** The `aud` the relying cloud expects (cloud A: the value its trust policy tests; cloud B: the pool provider). */
  audience: string;
  /** Defaults to `project:<projectId>:environment:<environmentId>`. */
  subject?: string;
}

export interface StorageIdToken {
  token: string;
  expiresAt: Date;
}

/** The default `sub`: cloud A can test only `aud` and `sub`, so `sub` alone must pin the environment. */
export const storageSubject = (projectId: string, environmentId: string) =>
  `project:${projectId}:environment:${environmentId}`;

export async function issueStorageIdToken(
  request: StorageIdTokenRequest,
  idp: OwnIdp,
): Promise<StorageIdToken> {
  if (!request.audience) throw new Error('An audience is required for a storage ID token.');
  const { kid, key } = await idp.keys.current();
  const issuedAt = Math.floor(idp.clock.now().getTime() / 1000);
  const lifetime = Math.min(Math.max(1, Math.floor(idp.tokenSeconds)), maxStorageIdTokenSeconds);
  const expiresAt = issuedAt + lifetime;
  const token = await new SignJWT({
    tenant_subdomain: idp.tenantSubdomain,
    project_id: request.projectId,
    environment_id: request.environmentId,
  })
    .setProtectedHeader({ alg: ownIdpAlgorithm, typ: 'JWT', kid })
    .setIssuer(idp.issuer())
    .setSubject(request.subject ?? storageSubject(request.projectId, request.environmentId))
    .setAudience(request.audience)
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
    .sign(key);
  return { token, expiresAt: new Date(expiresAt * 1000) };
}

/** The tokens a run or a connection check of one project environment may ask for. */
export const identityTokenSource =
  (idp: OwnIdp, projectId: string, environmentId: string): IdentityTokenSource =>
  (audience) =>
    issueStorageIdToken({ projectId, environmentId, audience }, idp);

/** The OIDC discovery document: only what a token verifier needs (no authorization endpoint exists). */
export function discoveryDocument(issuer: string) {
  return {
    issuer,
    jwks_uri: `${issuer}/jwks`,
    id_token_signing_alg_values_supported: [ownIdpAlgorithm],
    response_types_supported: ['id_token'],
    subject_types_supported: ['public'],
    claims_supported: ['iss', 'sub', 'aud', 'iat', 'exp', 'tenant_subdomain', 'project_id', 'environment_id'],
  };
}
