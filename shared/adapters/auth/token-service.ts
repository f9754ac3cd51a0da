/**
 * Dogu's own login tokens: compact JWTs (HS256) signed with a key the runtime
 * provides (a key file in the embedded runtime, Secrets Manager on AWS).
 * Clients treat them as opaque; only this module reads them.
 *
 * Issuing signs the compact JWS itself with node:crypto's synchronous HMAC
 * (base64url(header).base64url(payload).base64url(HMAC-SHA256)): through
 * jose's SignJWT every issue was a WebCrypto job plus its claim builder, the
 * largest cost of a token exchange after verifying the ID token
 * (docs/benchmarks.md, "token-exchange"). Verifying stays with jose, pinned
 * to HS256; the tests check that jose verifies what this module signs.
 */
import { createHmac, createSecretKey, type KeyObject, webcrypto } from 'node:crypto';
import { errors as joseErrors, jwtVerify } from 'jose';
import { unauthorized } from '../../domain/errors.ts';
import type { Principal } from '../../domain/model.ts';

const issuer = 'dogu';
const audience = 'dogu-api';
/** Verified tokens remembered, so a client reusing its token is not re-verified on every call. */
const maxRemembered = 10_000;
/** The protected header of every issued token, encoded once: `{"alg":"HS256","typ":"JWT"}`. */
const encodedHeader = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

export interface IssuedToken {
  token: string;
  expiresAt: number;
}

export class TokenService {
  /** Imported once: jose would otherwise import the raw key on every sign and verify. */
  private readonly key: Promise<webcrypto.CryptoKey>;
  /** The same key for node:crypto's HMAC, which signs synchronously. */
  private readonly signingKey: KeyObject;
  private readonly verified = new Map<
    string,
    { principal: Principal; claims: Record<string, unknown>; expiresAt: number }
  >();

  constructor(
    key: Uint8Array,
    private readonly now: () => Date = () => new Date(),
  ) {
    if (key.byteLength < 32) throw new Error('The token signing key must be at least 32 bytes.');
    this.signingKey = createSecretKey(key);
    this.key = webcrypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]);
  }

  /** `claims` are extra claims given back by verifyWithClaims (service-account bindings). */
  async issue(
    principal: Principal,
    lifetimeSeconds: number,
    claims: Record<string, string | number> = {},
  ): Promise<IssuedToken> {
    const issuedAt = Math.floor(this.now().getTime() / 1000);
    const expiresAt = issuedAt + lifetimeSeconds;
    // JSON would write a non-finite number as null: a token without a valid exp is never issued.
    if (!Number.isFinite(expiresAt)) throw new TypeError('The token lifetime must be a finite number.');
    // Claim order as jose's SignJWT wrote it; extra claims cannot override the registered ones.
    const payload = JSON.stringify({
      ...claims,
      email: principal.email,
      name: principal.name,
      kind: principal.kind,
      iss: issuer,
      aud: audience,
      sub: principal.id,
      iat: issuedAt,
      exp: expiresAt,
    });
    const signingInput = `${encodedHeader}.${Buffer.from(payload).toString('base64url')}`;
    const signature = createHmac('sha256', this.signingKey).update(signingInput).digest('base64url');
    const token = `${signingInput}.${signature}`;
    return { token, expiresAt };
  }

  async verify(token: string): Promise<Principal> {
    return (await this.verifyWithClaims(token)).principal;
  }

  async verifyWithClaims(token: string): Promise<{ principal: Principal; claims: Record<string, unknown> }> {
    const remembered = this.verified.get(token);
    if (remembered) {
      // The signature was checked once; expiry is checked on every use.
      if (remembered.expiresAt > this.now().getTime() / 1000) return remembered;
      this.verified.delete(token);
      throw unauthorized('The access token has expired.');
    }
    const checked = await this.verifySignature(token);
    if (this.verified.size >= maxRemembered) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, checked);
    return checked;
  }

  private async verifySignature(
    token: string,
  ): Promise<{ principal: Principal; claims: Record<string, unknown>; expiresAt: number }> {
    try {
      const { payload } = await jwtVerify(token, await this.key, {
        issuer,
        audience,
        algorithms: ['HS256'],
        currentDate: this.now(),
        requiredClaims: ['sub', 'exp'],
      });
      const { sub, email, name, kind, exp } = payload;
      if (
        typeof email !== 'string' ||
        typeof name !== 'string' ||
        (kind !== 'user' && kind !== 'service_account')
      ) {
        throw unauthorized('The access token is invalid.');
      }
      return { principal: { kind, id: sub!, email, name }, claims: payload, expiresAt: exp! };
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) throw unauthorized('The access token has expired.');
      if (error instanceof joseErrors.JOSEError) throw unauthorized('The access token is invalid.');
      throw error;
    }
  }
}
