/**
 * Slows down password guessing (decision 0029). Failed sign-ins are counted per e-mail address
 * (known or not, so the answer does not tell which addresses exist) and per client IP address, in
 * a sliding window. Past the limit every attempt is refused with 429 and Retry-After until the
 * oldest counted failure leaves the window, whether or not the password would be right; a
 * successful sign-in clears the address's count. Counts live in this process: the embedded
 * runtime is one process; on AWS each container counts on its own (docs/accounts.md).
 */
import { DoguError } from '../errors.ts';

export interface SignInLimits {
  windowMs: number;
  perAccount: number;
  perAddress: number;
}

export const defaultSignInLimits: SignInLimits = {
  windowMs: 15 * 60_000,
  perAccount: 5,
  perAddress: 30,
};

const maxTracked = 50_000;

export class SignInLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly limits: SignInLimits = defaultSignInLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /** Throws 429 when either key is over its limit. */
  check(email: string, ip: string): void {
    const waits = [
      this.waitMs(`account:${email.toLowerCase()}`, this.limits.perAccount),
      this.waitMs(`ip:${ip}`, this.limits.perAddress),
    ];
    const wait = Math.max(...waits);
    if (wait > 0) {
      const seconds = Math.ceil(wait / 1000);
      throw new DoguError(
        'too_many_requests',
        `Too many failed sign-ins; try again in ${Math.ceil(seconds / 60)} minute(s).`,
        { headers: { 'retry-after': String(seconds) }, extra: { retryAfterSeconds: seconds } },
      );
    }
  }

  recordFailure(email: string, ip: string): void {
    for (const key of [`account:${email.toLowerCase()}`, `ip:${ip}`]) {
      const list = this.recent(key);
      list.push(this.now());
      this.failures.delete(key);
      if (this.failures.size >= maxTracked) this.failures.delete(this.failures.keys().next().value!);
      this.failures.set(key, list);
    }
  }

  recordSuccess(email: string): void {
    this.failures.delete(`account:${email.toLowerCase()}`);
  }

  private recent(key: string): number[] {
    const since = this.now() - this.limits.windowMs;
    return (this.failures.get(key) ?? []).filter((at) => at > since);
  }

  private waitMs(key: string, limit: number): number {
    const list = this.recent(key);
    if (list.length < limit) return 0;
    return list[list.length - limit]! + this.limits.windowMs - this.now();
  }
}
