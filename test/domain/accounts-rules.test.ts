/** Password rules, the sign-in limiter's window, and scrypt hashes (format, parameters, tampering). */
import { describe, expect, it } from 'vitest';
import { scryptHasher } from '../../shared/adapters/auth/password-hasher.ts';
import { passwordProblem } from '../../shared/domain/accounts/password-policy.ts';
import { SignInLimiter } from '../../shared/domain/accounts/sign-in-limiter.ts';
import { DoguError } from '../../shared/domain/errors.ts';

describe('password rules', () => {
  it('accepts long passphrases, also in Japanese, with no composition rules', () => {
    expect(passwordProblem('correct horse battery', 'a@example.com')).toBeUndefined();
    expect(passwordProblem('すもももももももものうち', 'a@example.com')).toBeUndefined();
    expect(
      passwordProblem(
        'x'.repeat(256).replace(/x/g, (_c, i) => 'abcdefgh'[i % 8]!),
        'a@b.co',
      ),
    ).toBeUndefined();
  });

  it('refuses short, long, common, repetitive and address-containing passwords with the reason', () => {
    expect(passwordProblem('elevenchars', 'a@example.com')).toContain('at least 12');
    expect(passwordProblem('ab'.repeat(129), 'a@example.com')).toContain('at most 256');
    expect(passwordProblem('Password1234', 'a@example.com')).toContain('commonly used');
    expect(passwordProblem('ＰＡＳＳＷＯＲＤ１２３４', 'a@example.com')).toContain('commonly used');
    expect(passwordProblem('abababababab', 'a@example.com')).toContain('repeats');
    expect(passwordProblem('my.name@example.com!', 'my.name@example.com')).toContain('e-mail address');
    expect(passwordProblem('hello-taro-world', 'taro@example.com')).toContain('name part');
    // A short name part (under 4 characters) is not searched for: it would refuse too much.
    expect(passwordProblem('the sea is blue', 'sea@example.com')).toBeUndefined();
  });
});

describe('sign-in limiter', () => {
  it('refuses with Retry-After after 5 failures for one address until the oldest leaves the window', () => {
    let now = 1_000_000;
    const limiter = new SignInLimiter({ windowMs: 60_000, perAccount: 5, perAddress: 100 }, () => now);
    for (let i = 0; i < 5; i++) {
      limiter.check('a@x.test', '10.0.0.1');
      limiter.recordFailure('A@X.test', '10.0.0.1');
      now += 1_000;
    }
    let refusal: unknown;
    try {
      limiter.check('a@x.test', '10.0.0.2');
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(DoguError);
    expect((refusal as DoguError).status).toBe(429);
    expect((refusal as DoguError).headers).toEqual({ 'retry-after': '55' });
    expect(() => limiter.check('b@x.test', '10.0.0.1')).not.toThrow();
    now += 55_000;
    expect(() => limiter.check('a@x.test', '10.0.0.1')).not.toThrow();
  });

  it('counts per IP address across addresses, and success clears only the address', () => {
    const now = 0;
    const limiter = new SignInLimiter({ windowMs: 60_000, perAccount: 3, perAddress: 4 }, () => now);
    for (const email of ['a@x', 'b@x', 'c@x', 'd@x']) limiter.recordFailure(email, '10.0.0.9');
    expect(() => limiter.check('e@x', '10.0.0.9')).toThrow(/Too many failed sign-ins/);
    expect(() => limiter.check('e@x', '10.0.0.8')).not.toThrow();
    limiter.recordFailure('f@x', '1.1.1.1');
    limiter.recordFailure('f@x', '1.1.1.2');
    limiter.recordSuccess('f@x');
    limiter.recordFailure('f@x', '1.1.1.3');
    expect(() => limiter.check('f@x', '1.1.1.4')).not.toThrow();
  });
});

describe('scrypt hashes', () => {
  it('verify the right password only, carry their parameters, and refuse tampered hashes', async () => {
    const hash = await scryptHasher.hash('correct horse battery');
    expect(hash).toMatch(/^scrypt\$15\$8\$3\$[\w-]{22}\$[\w-]{43}$/);
    expect(await scryptHasher.hash('correct horse battery')).not.toBe(hash); // salted
    expect(await scryptHasher.verify('correct horse battery', hash)).toBe(true);
    expect(await scryptHasher.verify('correct horse batterY', hash)).toBe(false);
    expect(scryptHasher.needsRehash(hash)).toBe(false);
    expect(scryptHasher.needsRehash(hash.replace('scrypt$15$', 'scrypt$14$'))).toBe(true);
    const parts = hash.split('$');
    // One character of the key changed to a different one (a fixed 'AA' is the real hash when it ends so).
    const key = parts[5]!;
    parts[5] = `${key.slice(0, -2)}${key.at(-2) === 'A' ? 'B' : 'A'}${key.at(-1)}`;
    expect(parts[5]).not.toBe(key);
    expect(await scryptHasher.verify('correct horse battery', parts.join('$'))).toBe(false);
    expect(await scryptHasher.verify('x', 'bcrypt$whatever')).toBe(false);
    expect(await scryptHasher.verify('x', 'scrypt$30$8$1$aa$bb')).toBe(false);
  });
});
