/**
 * Dogu's own login tokens: compact JWTs (HS256) signed with a key the runtime
 * provides (a key file in the embedded runtime, Secrets Manager on AWS).
 * Clients treat them as opaque; only this module reads them.
 */
import { webcrypto } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { unauthorized } from '../../domain/errors.ts';
import type { Principal } from '../../domain/model.ts';

const issuer = 'dogu';
const audience = 'dogu-api';
/** Verified tokens remembered, so a client reusing its token is not re-verified on every call. */
const maxRemembered = 10_000;

export interface IssuedToken {
  token: string;
  expiresAt: number;
}

export class TokenService {
  /** Imported once: jose would otherwise import the raw key on every sign and verify. */
  private readonly key: Promise<webcrypto.CryptoKey>;
  private readonly verified = new Map<
    string,
    { principal: Principal; claims: Record<string, unknown>; expiresAt: number }
  >();

  constructor(
    key: Uint8Array,
    private readonly now: () => Date = () => new Date(),
  ) {
    if (key.byteLength < 32) throw new Error('The token signing key must be at least 32 bytes.');
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
    const token = await new SignJWT({
      ...claims,
      email: principal.email,
      name: principal.name,
      kind: principal.kind,
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(issuer)
      .setAudience(audience)
      .setSubject(principal.id)
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .sign(await this.key);
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
