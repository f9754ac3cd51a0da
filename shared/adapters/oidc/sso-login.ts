/**
 * Turns an ID token from the deployment's IdP (sso-config.ts) into a Dogu
 * login: the token is verified (signature by the IdP's JWKS, issuer, audience
 * = our client, expiry), the user is found or created by e-mail, and a Dogu
 * login JWT is issued. Used by the CLI (POST /public/v1/login/oidc) and the
 * console callback (GET /auth/callback).
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { createRemoteJWKSet, type JWTPayload, errors as joseErrors, jwtVerify } from 'jose';
import { ensureAccount, findOrCreateUser, isOneEmailAddress } from '../../domain/accounts/account-records.ts';
import { issueUserToken } from '../../domain/accounts/sign-in.ts';
import { DoguError, forbidden, unauthorized } from '../../domain/errors.ts';
import type { User } from '../../domain/model.ts';
import { recordLogin } from '../../http/audit-recording.ts';
import type { CoreServices } from '../../runtime/core-services.ts';
import { isLoopbackHttp, type SsoConfig } from './sso-config.ts';
import { ssoStep } from './sso-provider.ts';

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
    throw new DoguError(
      'service_unavailable',
      ssoStep('discovery', `the IdP could not be reached: ${(error as Error).message}.`),
    );
  }
  if (metadata.issuer !== issuer || typeof metadata.jwks_uri !== 'string') {
    throw new DoguError(
      'service_unavailable',
      ssoStep('discovery', 'the IdP published unusable discovery metadata.'),
    );
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
    if (error instanceof joseErrors.JWTExpired)
      throw unauthorized(ssoStep('id token validation', 'the ID token has expired.'));
    if (error instanceof joseErrors.JOSEError) {
      throw unauthorized(ssoStep('id token validation', `the ID token is invalid (${error.code}).`));
    }
    throw error;
  }
  const { email, name, email_verified: verified } = payload;
  if (typeof email !== 'string' || !email.includes('@')) {
    throw unauthorized('The ID token carries no e-mail address (request the `email` scope).');
  }
  // One address or none: `x@evil.com@corp.example` would pass the domain rule as corp.example.
  if (!isOneEmailAddress(email)) {
    throw unauthorized(ssoStep('id token validation', 'the e-mail claim is not one valid e-mail address.'));
  }
  if (verified === false) throw unauthorized('The IdP has not verified this e-mail address.');
  return { email: email.toLowerCase(), name: typeof name === 'string' && name ? name : email };
}

/**
 * Finds or creates the user, records a `login` audit entry per project of the user, and returns a
 * login JWT carrying the account's token generation. A disabled account is refused. With an
 * administrator's provider (`config.admission`), a user without an account comes in only by an
 * allowed e-mail domain, and then joins the configured projects (just-in-time membership).
 */
export async function loginWithIdentity(
  services: CoreServices,
  identity: SsoIdentity,
  via: { client: 'cli' | 'console'; event: APIGatewayProxyEventV2 },
  extraClaims: Record<string, string> = {},
  config?: SsoConfig,
): Promise<{ user: User; token: string; expiresAt: number }> {
  const user = config?.admission
    ? await admit(services, identity, config.admission)
    : await findOrCreateUser(services, identity.email, identity.name);
  const account = await ensureAccount(services, user);
  if (account.disabled) throw forbidden('This account is disabled; ask an administrator.');
  const { token, expiresAt } = await issueUserToken(services, user, extraClaims);
  await recordLogin(services, user, via.event, { method: 'oidc', client: via.client });
  return { user, token, expiresAt };
}

async function admit(
  services: CoreServices,
  identity: SsoIdentity,
  admission: NonNullable<SsoConfig['admission']>,
): Promise<User> {
  const existing = await services.store.getUserByEmail(identity.email);
  if (existing && (await services.accounts.store.getAccount(existing.id))) return existing;
  const domain = identity.email.split('@').pop()!;
  if (!admission.allowedDomains.includes(domain)) {
    throw forbidden(
      ssoStep(
        'domain not allowed',
        `'${domain}' is not an allowed e-mail domain; ask an administrator to invite you.`,
      ),
    );
  }
  const user = existing ?? (await findOrCreateUser(services, identity.email, identity.name));
  await ensureAccount(services, user, { ssoProvisioned: true });
  for (const { projectId, role } of admission.defaultMemberships) {
    // Only adds: a role someone gave the user already is left as it is.
    // The project must exist and be the one the administrator chose: one created after the setting
    // was saved (an id deleted and made again) is someone else's and is not joined.
    const project = await services.store.getProject(projectId);
    if (!project || (admission.savedAt && project.createdAt > admission.savedAt)) continue;
    const members = await services.store.listMemberships(projectId);
    if (!members.some((m) => m.principalId === user.id)) {
      await services.store.putMembership({ projectId, principalId: user.id, role });
    }
  }
  return user;
}
