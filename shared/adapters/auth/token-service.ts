/**
 * Dogu's own login tokens: compact JWTs (HS256) signed with a key the runtime
 * provides (a key file in the embedded runtime, Secrets Manager on AWS).
 * Clients treat them as opaque; only this module reads them.
 *
 * Issuing signs the compact JWS itself, synchronously with node:crypto
 * (base64url(header).base64url(payload).base64url(HMAC-SHA256)): through
 * jose's SignJWT every issue was a WebCrypto job plus its claim builder, the
 * largest cost of a token exchange after verifying the ID token
 * (docs/benchmarks.md, "token-exchange"). Verifying stays with jose, pinned
 * to HS256; the tests check that jose verifies what this module signs.
 */
import { hash, webcrypto } from 'node:crypto';
import { errors as joseErrors, jwtVerify } from 'jose';
import { unauthorized } from '../../domain/errors.ts';
import type { Principal } from '../../domain/model.ts';

const issuer = 'dogu';
const audience = 'dogu-api';
/** Verified tokens remembered, so a client reusing its token is not re-verified on every call. */
const maxRemembered = 10_000;
/** The protected header of every issued token, encoded once: `{"alg":"HS256","typ":"JWT"}`. */
const hmacBlockBytes = 64;
const encodedHeader = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

export interface IssuedToken {
  token: string;
  expiresAt: number;
}

export class TokenService {
  /** Imported once: jose would otherwise import the raw key on every sign and verify. */
  private readonly key: Promise<webcrypto.CryptoKey>;
  /** K xor ipad (RFC 2104), followed by room for the signing input. */
  private innerBlock: Buffer;
  /** K xor opad, followed by the inner hash. */
  private readonly outerBlock = Buffer.alloc(hmacBlockBytes + 32);
  private readonly verified = new Map<
    string,
    { principal: Principal; claims: Record<string, unknown>; expiresAt: number }
  >();

  constructor(
    key: Uint8Array,
    private readonly now: () => Date = () => new Date(),
  ) {
    if (key.byteLength < 32) throw new Error('The token signing key must be at least 32 bytes.');
    // RFC 2104: a key longer than the hash's block is hashed first, a shorter one padded with zeros.
    const block = Buffer.alloc(hmacBlockBytes);
    Buffer.from(key.byteLength > hmacBlockBytes ? hash('sha256', key, 'buffer') : key).copy(block);
    this.innerBlock = Buffer.alloc(hmacBlockBytes + 512);
    for (let i = 0; i < hmacBlockBytes; i++) {
      this.innerBlock[i] = block[i]! ^ 0x36;
      this.outerBlock[i] = block[i]! ^ 0x5c;
    }
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
    const token = `${signingInput}.${this.hmacSha256(signingInput)}`;
    return { token, expiresAt };
  }

  /**
   * HMAC-SHA256 (RFC 2104) from two one-shot hashes over blocks prepared at start: createHmac set
   * up a new OpenSSL HMAC context per token, which in a token exchange cost about twice what it
   * costs alone (next to the ID tokens' RSA verifications on the thread pool).
   */
  private hmacSha256(input: string): string {
    const length = hmacBlockBytes + input.length;
    if (this.innerBlock.length < length) {
      const larger = Buffer.alloc(Math.max(length, this.innerBlock.length * 2));
      this.innerBlock.copy(larger, 0, 0, hmacBlockBytes);
      this.innerBlock = larger;
    }
    // The signing input is base64url and dots: one byte per character.
    this.innerBlock.write(input, hmacBlockBytes, 'latin1');
    hash('sha256', this.innerBlock.subarray(0, length), 'buffer').copy(this.outerBlock, hmacBlockBytes);
    return hash('sha256', this.outerBlock, 'base64url');
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
