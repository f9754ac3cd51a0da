/**
 * Turns an ID token from the deployment's IdP (sso-config.ts) into a Dogu
 * login: the token is verified (signature by the IdP's JWKS, issuer, audience
 * = our client, expiry), the user is found or created by e-mail, and a Dogu
 * login JWT is issued. Used by the CLI (POST /public/v1/login/oidc) and the
 * console callback (GET /auth/callback).
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { createRemoteJWKSet, type JWTPayload, errors as joseErrors, jwtVerify } from 'jose';
import { DoguError, unauthorized } from '../../domain/errors.ts';
import { principalOf } from '../../domain/local-login.ts';
import type { User } from '../../domain/model.ts';
import { AlreadyExistsError } from '../../domain/ports.ts';
import { recordLogin } from '../../http/audit-recording.ts';
import type { CoreServices } from '../../runtime/services.ts';
import { isLoopbackHttp, type SsoConfig } from './sso-config.ts';

const jwksByIssuer = new Map<string, { jwksUri: string; jwks: ReturnType<typeof createRemoteJWKSet> }>();

async function jwksOf(issuer: string) {
  const cached = jwksByIssuer.get(issuer);
  if (cached) return cached.jwks;
  if (!issuer.startsWith('https://') && !isLoopbackHttp(issuer)) {
    throw new DoguError('internal_error', 'The configured IdP issuer must be an https URL.');
  }
  const discoveryUrl = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
  let metadata: { issuer?: string; jwks_uri?: string };
  try {
    const response = await fetch(discoveryUrl, { signal: AbortSignal.timeout(5000) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    metadata = (await response.json()) as typeof metadata;
  } catch (error) {
    throw new DoguError('service_unavailable', `The IdP could not be reached: ${(error as Error).message}.`);
  }
  if (metadata.issuer !== issuer || typeof metadata.jwks_uri !== 'string') {
    throw new DoguError('service_unavailable', 'The IdP published unusable discovery metadata.');
  }
  const jwks = createRemoteJWKSet(new URL(metadata.jwks_uri), { timeoutDuration: 5000 });
  jwksByIssuer.set(issuer, { jwksUri: metadata.jwks_uri, jwks });
  return jwks;
}

export interface SsoIdentity {
  email: string;
  name: string;
}

/** Verifies an ID token of the configured IdP issued to `audience` (one of our client ids). */
export async function verifyIdpIdToken(
  config: SsoConfig,
  idToken: string,
  audience: string,
  now: Date,
): Promise<SsoIdentity> {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(idToken, await jwksOf(config.issuer), {
      issuer: config.issuer,
      audience,
      currentDate: now,
      requiredClaims: ['sub', 'exp', 'iat'],
      algorithms: ['RS256', 'PS256', 'ES256', 'ES384', 'EdDSA'],
    }));
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw unauthorized('The ID token has expired.');
    if (error instanceof joseErrors.JOSEError) throw unauthorized('The ID token is invalid.');
    throw error;
  }
  const { email, name, email_verified: verified } = payload;
  if (typeof email !== 'string' || !email.includes('@')) {
    throw unauthorized('The ID token carries no e-mail address (request the `email` scope).');
  }
  if (verified === false) throw unauthorized('The IdP has not verified this e-mail address.');
  return { email: email.toLowerCase(), name: typeof name === 'string' && name ? name : email };
}

/** Finds or creates the user, records a `login` audit entry per project of the user, and returns a login JWT. */
export async function loginWithIdentity(
  services: CoreServices,
  identity: SsoIdentity,
  via: { client: 'cli' | 'console'; event: APIGatewayProxyEventV2 },
  extraClaims: Record<string, string> = {},
): Promise<{ user: User; token: string; expiresAt: number }> {
  const user = await findOrCreateUser(services, identity);
  const { token, expiresAt } = await services.tokens.issue(
    principalOf(user),
    services.settings.loginTokenSeconds,
    extraClaims,
  );
  await recordLogin(services, user, via.event, { method: 'oidc', client: via.client });
  return { user, token, expiresAt };
}

async function findOrCreateUser(services: CoreServices, identity: SsoIdentity): Promise<User> {
  const existing = await services.store.getUserByEmail(identity.email);
  if (existing) return existing;
  try {
    return await services.store.createUser({
      id: services.ids.next('usr'),
      email: identity.email,
      name: identity.name,
      createdAt: services.clock.now().toISOString(),
    });
  } catch (error) {
    if (!(error instanceof AlreadyExistsError)) throw error;
    const created = await services.store.getUserByEmail(identity.email);
    if (!created) throw error;
    return created;
  }
}
