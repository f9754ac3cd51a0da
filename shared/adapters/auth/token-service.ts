/**
 * Dogu's own login tokens: compact JWTs (HS256) signed with a key the runtime
 * provides (a key file in the embedded runtime, Secrets Manager on AWS).
 * Clients treat them as opaque; only this module reads them.
 */
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { unauthorized } from '../../domain/errors.ts';
import type { Principal } from '../../domain/model.ts';

const issuer = 'dogu';
const audience = 'dogu-api';

export interface IssuedToken {
  token: string;
  expiresAt: number;
}

export class TokenService {
  constructor(
    private readonly key: Uint8Array,
    private readonly now: () => Date = () => new Date(),
  ) {
    if (key.byteLength < 32) throw new Error('The token signing key must be at least 32 bytes.');
  }

  async issue(principal: Principal, lifetimeSeconds: number): Promise<IssuedToken> {
    const issuedAt = Math.floor(this.now().getTime() / 1000);
    const expiresAt = issuedAt + lifetimeSeconds;
    const token = await new SignJWT({ email: principal.email, name: principal.name, kind: principal.kind })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(issuer)
      .setAudience(audience)
      .setSubject(principal.id)
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .sign(this.key);
    return { token, expiresAt };
  }

  async verify(token: string): Promise<Principal> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer,
        audience,
        algorithms: ['HS256'],
        currentDate: this.now(),
        requiredClaims: ['sub', 'exp'],
      });
      const { sub, email, name, kind } = payload;
      if (
        typeof email !== 'string' ||
        typeof name !== 'string' ||
        (kind !== 'user' && kind !== 'service_account')
      ) {
        throw unauthorized('The access token is invalid.');
      }
      return { kind, id: sub!, email, name };
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) throw unauthorized('The access token has expired.');
      if (error instanceof joseErrors.JOSEError) throw unauthorized('The access token is invalid.');
      throw error;
    }
  }
}
