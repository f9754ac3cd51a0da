import { createHmac } from 'node:crypto';
import { decodeProtectedHeader, jwtVerify, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { TokenService } from '../../shared/adapters/auth/token-service.ts';
import { DoguError } from '../../shared/domain/errors.ts';
import type { Principal } from '../../shared/domain/model.ts';

const key = new Uint8Array(32).fill(1);
const ann: Principal = { kind: 'user', id: 'usr_ann', email: 'ann@example.com', name: 'Ann' };

async function refusal(run: Promise<unknown>): Promise<string> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DoguError);
  expect((error as DoguError).code).toBe('unauthorized');
  return (error as DoguError).message;
}

const segment = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('TokenService', () => {
  it('issues a token that verifies to the same principal, with expiresAt in Unix seconds', async () => {
    let now = new Date('2026-11-22T00:00:00Z');
    const tokens = new TokenService(key, () => now);
    const { token, expiresAt } = await tokens.issue(ann, 3600);
    expect(expiresAt).toBe(Date.parse('2026-11-22T01:00:00Z') / 1000);
    expect(await tokens.verify(token)).toEqual(ann);
    now = new Date('2026-11-22T00:59:59Z');
    expect(await tokens.verify(token)).toEqual(ann); // from the remembered verification
  });

  it('refuses a remembered token once it has expired', async () => {
    let now = new Date('2026-11-22T00:00:00Z');
    const tokens = new TokenService(key, () => now);
    const { token } = await tokens.issue(ann, 60);
    await tokens.verify(token);
    now = new Date('2026-11-22T00:01:01Z');
    expect(await refusal(tokens.verify(token))).toBe('The access token has expired.');
    expect(await refusal(tokens.verify(token))).toBe('The access token has expired.');
  });

  it('refuses an expired token it has never seen', async () => {
    const issuer = new TokenService(key, () => new Date('2026-01-01T00:00:00Z'));
    const { token } = await issuer.issue(ann, 60);
    expect(await refusal(new TokenService(key).verify(token))).toBe('The access token has expired.');
  });

  it('refuses tokens signed with another key, tampered, unsigned or of another algorithm', async () => {
    const tokens = new TokenService(key);
    const { token: foreign } = await new TokenService(new Uint8Array(32).fill(2)).issue(ann, 600);
    expect(await refusal(tokens.verify(foreign))).toBe('The access token is invalid.');

    const { token } = await tokens.issue(ann, 600);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const elevated = segment({
      ...JSON.parse(Buffer.from(payload, 'base64url').toString()),
      email: 'root@example.com',
    });
    expect(await refusal(tokens.verify(`${header}.${elevated}.${signature}`))).toBe(
      'The access token is invalid.',
    );
    expect(await refusal(tokens.verify(`${segment({ alg: 'none', typ: 'JWT' })}.${payload}.`))).toBe(
      'The access token is invalid.',
    );
    expect(
      await refusal(tokens.verify(`${segment({ alg: 'HS512', typ: 'JWT' })}.${payload}.${signature}`)),
    ).toBe('The access token is invalid.');
    expect(await refusal(tokens.verify('not.a.token'))).toBe('The access token is invalid.');
  });

  it('signs compact HS256 JWS that jose itself verifies with the key, pinned to HS256', async () => {
    const at = new Date('2026-11-22T00:00:00Z');
    const tokens = new TokenService(key, () => at);
    const { token, expiresAt } = await tokens.issue(ann, 600, { dogu_sa: 'sa_1', dogu_tg: 3 });
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256', typ: 'JWT' });
    const { payload } = await jwtVerify(token, key, {
      algorithms: ['HS256'],
      issuer: 'dogu',
      audience: 'dogu-api',
      currentDate: at,
    });
    expect(payload).toEqual({
      dogu_sa: 'sa_1',
      dogu_tg: 3,
      email: ann.email,
      name: ann.name,
      kind: 'user',
      iss: 'dogu',
      aud: 'dogu-api',
      sub: ann.id,
      iat: expiresAt - 600,
      exp: expiresAt,
    });
    // Byte for byte what jose's SignJWT writes for the same claims.
    const expected = await new SignJWT({
      dogu_sa: 'sa_1',
      dogu_tg: 3,
      email: ann.email,
      name: ann.name,
      kind: 'user',
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer('dogu')
      .setAudience('dogu-api')
      .setSubject(ann.id)
      .setIssuedAt(expiresAt - 600)
      .setExpirationTime(expiresAt)
      .sign(key);
    expect(token).toBe(expected);

    const [header, body, signature] = token.split('.') as [string, string, string];
    const flipped = `${signature.slice(0, -2)}${signature.at(-2) === 'A' ? 'B' : 'A'}${signature.at(-1)}`;
    const other = segment({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), sub: 'usr_bob' });
    for (const tampered of [`${header}.${body}.${flipped}`, `${header}.${other}.${signature}`]) {
      await expect(jwtVerify(tampered, key, { algorithms: ['HS256'] })).rejects.toThrow('signature');
      expect(await refusal(tokens.verify(tampered))).toBe('The access token is invalid.');
    }
  });

  it('signs the HMAC of RFC 2104 for any key length and claim size, token after token', async () => {
    const at = new Date('2026-11-22T00:00:00Z');
    // 32 bytes (padded to the 64-byte block), exactly 64, and 100 (hashed first, RFC 2104 section 2).
    for (const length of [32, 64, 100]) {
      const longKey = Uint8Array.from({ length }, (_, i) => (i * 7 + length) & 0xff);
      const tokens = new TokenService(longKey, () => at);
      // A long name makes the signing input outgrow the service's prepared buffer; then a short one again.
      for (const name of ['A', 'n'.repeat(3000), 'Ann', 'アン']) {
        const { token } = await tokens.issue({ ...ann, name }, 600);
        const [header, body, signature] = token.split('.') as [string, string, string];
        const expected = createHmac('sha256', longKey).update(`${header}.${body}`).digest('base64url');
        expect(signature).toBe(expected);
        const { payload } = await jwtVerify(token, longKey, { algorithms: ['HS256'], currentDate: at });
        expect(payload.name).toBe(name);
      }
    }
  });

  it('refuses to issue a token without a finite lifetime', async () => {
    await expect(new TokenService(key).issue(ann, Number.NaN)).rejects.toThrow('finite');
  });

  it('refuses a short key', () => {
    expect(() => new TokenService(new Uint8Array(16))).toThrow('at least 32 bytes');
  });
});
