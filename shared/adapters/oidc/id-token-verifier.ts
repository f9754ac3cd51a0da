/**
 * Validates external OIDC ID tokens (spec 5.1) with jose: keys come from the
 * issuer's discovery document and JWKS, fetched by us over HTTPS only (see
 * https-json.ts) and cached per issuer. The header's `jku`, `x5u` and `jwk`
 * are never used: keys come only from the issuer's published JWKS.
 * Rules and numbers: docs/decisions/0013-token-exchange.md.
 */
import { createLocalJWKSet, errors, type JWTPayload, jwtVerify } from 'jose';
import { logger } from '../../commons/logger.ts';
import {
  IdpUnavailableError,
  type IdTokenClaims,
  IdTokenRejectedError,
  type IdTokenVerifier,
  idTokenDescriptions,
  maxSubjectTokenBytes,
} from '../../domain/identity/token-exchange.ts';
import type { Clock } from '../../domain/ports.ts';
import { fetchHttpsJson, IdpMisconfiguredError, IdpUnreachableError } from './https-json.ts';

/** Asymmetric algorithms only: `none` and HS* (which would take a public key as a secret) never verify. */
export const allowedAlgorithms = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
];

export interface OidcVerifierOptions {
  /** PEM of CAs trusted besides the system roots (DOGU_OIDC_EXTRA_CA_FILE). */
  extraCa?: string;
  clock: Clock;
  fetchTimeoutMs?: number;
  /** How long discovery and keys are used before they are fetched again. */
  keysCacheMs?: number;
  /** An unknown `kid` refetches the JWKS at most once per this period per issuer. */
  unknownKidCooldownMs?: number;
  clockSkewSeconds?: number;
  /**
   * ID tokens whose verification is remembered (default 1,000; 0 turns it off). A token presented
   * again (a CI job exchanging its token for each step) is then not verified again: the entry lives
   * until the token expires and never longer than the keys that verified it are trusted (keysCacheMs
   * after they were fetched), so it accepts nothing a fresh verification would refuse (decision 0060).
   */
  verifiedCacheSize?: number;
}

type KeySet = ReturnType<typeof createLocalJWKSet>;

interface IssuerKeys {
  jwksUri: string;
  keys: KeySet;
  fetchedAt: number;
}

const maxDocumentBytes = 512 * 1024;
/** jose's check: a verified token must name these (the audiences are checked against the policies). */
const requiredClaims = ['iss', 'aud', 'exp'];
const base64urlText = /^[A-Za-z0-9_-]+$/;

/**
 * The payload of a compact JWS (`header.payload.signature`) as a JSON object, unverified, or
 * undefined. Node's native base64url and one JSON.parse: jose's decodeJwt cost a fresh token
 * exchange twice as much (docs/benchmarks.md, "token-exchange"). It only picks candidates: the
 * verification that follows decodes the payload again, strictly, and checks `iss` exactly.
 */
export function unverifiedClaims(token: string): Record<string, unknown> | undefined {
  const first = token.indexOf('.');
  const second = first < 0 ? -1 : token.indexOf('.', first + 1);
  if (second < 0 || token.indexOf('.', second + 1) >= 0) return undefined;
  const segment = token.slice(first + 1, second);
  if (!base64urlText.test(segment)) return undefined;
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  return typeof claims === 'object' && claims !== null && !Array.isArray(claims)
    ? (claims as Record<string, unknown>)
    : undefined;
}
const rejected = (description: string, reason: string) => new IdTokenRejectedError(description, reason);

export class OidcIdTokenVerifier implements IdTokenVerifier {
  private readonly issuers = new Map<string, Promise<IssuerKeys>>();
  /** The settled value of `issuers`' promise, so a verification with fresh keys awaits nothing for them. */
  private readonly ready = new Map<string, IssuerKeys>();
  private readonly fetchTimeoutMs: number;
  private readonly keysCacheMs: number;
  private readonly cooldownMs: number;
  private readonly skewSeconds: number;
  private readonly verifiedCacheSize: number;
  /** By token; the entry says for which issuer and audiences it was verified. */
  private readonly verified = new Map<
    string,
    { issuer: string; audiences: string; claims: IdTokenClaims; until: number }
  >();

  constructor(private readonly options: OidcVerifierOptions) {
    this.verifiedCacheSize = options.verifiedCacheSize ?? 1_000;
    this.fetchTimeoutMs = options.fetchTimeoutMs ?? 5_000;
    this.keysCacheMs = options.keysCacheMs ?? 10 * 60_000;
    this.cooldownMs = options.unknownKidCooldownMs ?? 60_000;
    this.skewSeconds = options.clockSkewSeconds ?? 60;
  }

  peekIssuer(token: string): string | undefined {
    if (token.length > maxSubjectTokenBytes) return undefined;
    const iss = unverifiedClaims(token)?.iss;
    return typeof iss === 'string' && iss !== '' ? iss : undefined;
  }

  async verify(token: string, issuer: string, audiences: readonly string[]): Promise<IdTokenClaims> {
    const now = this.options.clock.now();
    const at = now.getTime();
    // No key is built with the cache off: every exchange of a fresh token would pay for it.
    const audienceKey = this.verifiedCacheSize === 0 ? '' : audiences.join('\n');
    const remembered = this.verifiedCacheSize === 0 ? undefined : this.verified.get(token);
    if (remembered && remembered.issuer === issuer && remembered.audiences === audienceKey) {
      if (remembered.until > at) return { ...remembered.claims };
      this.verified.delete(token);
    }
    const ready = this.ready.get(issuer);
    const cached =
      ready !== undefined && at - ready.fetchedAt < this.keysCacheMs
        ? ready
        : await this.keysOf(issuer, 'cached');
    let claims: IdTokenClaims;
    try {
      claims = await this.check(token, cached.keys, issuer, audiences, now);
    } catch (error) {
      claims = await this.afterFailure(error, token, cached, issuer, audiences);
    }
    if (this.verifiedCacheSize > 0) this.remember(token, issuer, audienceKey, claims, cached);
    return claims;
  }

  /** How many verified tokens are remembered, and the most (the runtime's metrics can show it). */
  stats(): { size: number; max: number } {
    return { size: this.verified.size, max: this.verifiedCacheSize };
  }

  private remember(
    token: string,
    issuer: string,
    audiences: string,
    claims: IdTokenClaims,
    keys: IssuerKeys,
  ): void {
    if (typeof claims.exp !== 'number') return;
    const until = Math.min(claims.exp * 1000, keys.fetchedAt + this.keysCacheMs);
    if (until <= this.now()) return;
    this.verified.delete(token);
    if (this.verified.size >= this.verifiedCacheSize)
      this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, { issuer, audiences, claims: { ...claims }, until });
  }

  /** A check that failed: an unknown kid may be a rotated key, fetched again at most once per cooldown. */
  private async afterFailure(
    error: unknown,
    token: string,
    cached: IssuerKeys,
    issuer: string,
    audiences: readonly string[],
  ): Promise<IdTokenClaims> {
    // Keys rotate: an unknown kid may be a new key, but it may not make us hammer the IdP.
    if (!(error instanceof errors.JWKSNoMatchingKey)) throw this.rejection(error);
    if (this.now() - cached.fetchedAt < this.cooldownMs) throw this.rejection(error);
    const refreshed = await this.keysOf(issuer, 'refresh');
    try {
      return await this.check(token, refreshed.keys, issuer, audiences, this.options.clock.now());
    } catch (again) {
      throw this.rejection(again);
    }
  }

  private now(): number {
    return this.options.clock.now().getTime();
  }

  private async check(
    token: string,
    keys: KeySet,
    issuer: string,
    audiences: readonly string[],
    currentDate: Date,
  ): Promise<JWTPayload> {
    const { payload } = await jwtVerify(token, keys, {
      issuer,
      // jose only reads it.
      audience: audiences as string[],
      algorithms: allowedAlgorithms,
      clockTolerance: this.skewSeconds,
      currentDate,
      requiredClaims,
    });
    // jose checks `iat` only with maxTokenAge: a token issued in the future is not valid yet.
    if (typeof payload.iat === 'number' && payload.iat > currentDate.getTime() / 1000 + this.skewSeconds) {
      throw rejected(idTokenDescriptions.expired, 'iat is in the future');
    }
    return payload;
  }

  /** The fixed description a failed check earns; the detail goes to the log only. */
  private rejection(error: unknown): Error {
    if (error instanceof IdTokenRejectedError || error instanceof IdpUnavailableError) return error;
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    if (error instanceof errors.JWTExpired) return rejected(idTokenDescriptions.expired, reason);
    if (error instanceof errors.JWTClaimValidationFailed) {
      const timing = error.claim === 'nbf' || error.claim === 'iat';
      return rejected(timing ? idTokenDescriptions.expired : idTokenDescriptions.claims, reason);
    }
    if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid) {
      return rejected(idTokenDescriptions.malformed, reason);
    }
    if (!(error instanceof errors.JOSEError)) logger.warn('unexpected ID token failure', { reason });
    return rejected(idTokenDescriptions.signature, reason);
  }

  /**
   * Discovery and JWKS of an issuer, shared by concurrent requests. A refresh that fails because
   * the IdP is down keeps the keys we had: a short outage does not stop tokens it already signed.
   */
  private keysOf(issuer: string, mode: 'cached' | 'refresh'): Promise<IssuerKeys> {
    const current = this.issuers.get(issuer);
    if (current && mode === 'cached') {
      return current.then((known) =>
        this.now() - known.fetchedAt < this.keysCacheMs ? known : this.keysOf(issuer, 'refresh'),
      );
    }
    // Until the new keys are in, requests wait for them, as they did before the `ready` shortcut.
    this.ready.delete(issuer);
    const previous = current?.catch(() => undefined);
    const loading = this.load(issuer).catch(async (error: unknown) => {
      const stale = await previous;
      if (stale && error instanceof IdpUnavailableError) {
        logger.warn('identity provider unreachable, keeping its cached keys', { issuer });
        return { ...stale, fetchedAt: this.now() - this.keysCacheMs + this.cooldownMs };
      }
      if (this.issuers.get(issuer) === loading) this.issuers.delete(issuer);
      throw error;
    });
    this.issuers.set(issuer, loading);
    loading.then(
      (keys) => {
        if (this.issuers.get(issuer) === loading) this.ready.set(issuer, keys);
      },
      () => {},
    );
    return loading;
  }

  private async load(issuer: string): Promise<IssuerKeys> {
    const discoveryUrl = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
    const discovery = await this.fetchJson(discoveryUrl);
    if (typeof discovery !== 'object' || discovery === null) {
      throw rejected(idTokenDescriptions.idp, 'discovery document is not an object');
    }
    const { issuer: published, jwks_uri: jwksUri } = discovery as Record<string, unknown>;
    // OIDC Discovery 4.3: the document must name exactly the issuer it was fetched for.
    if (published !== issuer) throw rejected(idTokenDescriptions.idp, 'discovery names another issuer');
    if (typeof jwksUri !== 'string' || !jwksUri.startsWith('https://')) {
      throw rejected(idTokenDescriptions.idp, 'jwks_uri is not an HTTPS URL');
    }
    const jwks = await this.fetchJson(jwksUri);
    if (typeof jwks !== 'object' || jwks === null || !Array.isArray((jwks as { keys?: unknown }).keys)) {
      throw rejected(idTokenDescriptions.idp, 'JWKS has no keys array');
    }
    let keys: KeySet;
    try {
      keys = createLocalJWKSet(jwks as Parameters<typeof createLocalJWKSet>[0]);
    } catch (error) {
      throw rejected(idTokenDescriptions.idp, `JWKS is invalid: ${(error as Error).message}`);
    }
    return { jwksUri, keys, fetchedAt: this.now() };
  }

  private async fetchJson(url: string): Promise<unknown> {
    try {
      return await fetchHttpsJson(url, {
        ...(this.options.extraCa ? { extraCa: this.options.extraCa } : {}),
        timeoutMs: this.fetchTimeoutMs,
        maxBytes: maxDocumentBytes,
      });
    } catch (error) {
      if (error instanceof IdpUnreachableError) {
        logger.warn('identity provider unreachable', { url, reason: error.message });
        throw new IdpUnavailableError(error.message);
      }
      if (error instanceof IdpMisconfiguredError) throw rejected(idTokenDescriptions.idp, error.message);
      throw error;
    }
  }
}
