/**
 * Password hashing with scrypt from node:crypto (decision 0029). No argon2id library installs
 * here without a native build, and scrypt is memory-hard too. Parameters follow OWASP's Password
 * Storage Cheat Sheet (N=2^15, r=8, p=3: 32 MiB per hash); they are stored with each hash, so
 * raising them later re-hashes a password at its next sign-in (`needsRehash`).
 *
 * Format: `scrypt$<log2 N>$<r>$<p>$<salt base64url>$<key base64url>`.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import type { PasswordHasher } from '../../domain/accounts/model.ts';

export const scryptParameters = { log2N: 15, r: 8, p: 3, keyLength: 32, saltLength: 16 };

function derive(password: string, salt: Buffer, log2N: number, r: number, p: number, keyLength: number) {
  const N = 2 ** log2N;
  return new Promise<Buffer>((resolve, reject) => {
    // maxmem: 128 * N * r bytes plus headroom, or node refuses parameters this size.
    scrypt(password.normalize('NFKC'), salt, keyLength, { N, r, p, maxmem: 256 * N * r }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export const scryptHasher: PasswordHasher = {
  async hash(password) {
    const { log2N, r, p, keyLength, saltLength } = scryptParameters;
    const salt = randomBytes(saltLength);
    const key = await derive(password, salt, log2N, r, p, keyLength);
    return ['scrypt', log2N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
  },
  async verify(password, stored) {
    const parts = stored.split('$');
    if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
    const [log2N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
    if (![log2N, r, p].every((n) => Number.isInteger(n) && n > 0) || log2N > 20) return false;
    const expected = Buffer.from(parts[5]!, 'base64url');
    const key = await derive(password, Buffer.from(parts[4]!, 'base64url'), log2N, r, p, expected.length);
    return key.length === expected.length && timingSafeEqual(key, expected);
  },
  needsRehash(stored) {
    const { log2N, r, p } = scryptParameters;
    return !stored.startsWith(`scrypt$${log2N}$${r}$${p}$`);
  },
};
