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

  it('refuses a short key', () => {
    expect(() => new TokenService(new Uint8Array(16))).toThrow('at least 32 bytes');
  });
});
