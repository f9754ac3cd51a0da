/**
 * Per-client rate limits (decision 0053): each caller (a user, a service account, a token subject)
 * may make `perMinute` requests in a fixed one-minute window, whichever route it calls. API Gateway's
 * throttling is per route and shared by everyone; this is what keeps one runaway script from
 * starving its colleagues.
 */
import { DoguError } from './errors.ts';

export interface RateDecision {
  allowed: boolean;
  /** Seconds until the window ends (when refused). */
  retryAfterSeconds: number;
}

export interface ClientRateLimiter {
  /** Counts one request of `clientId` at `nowMs` and says whether it is within the limit. */
  take(clientId: string, nowMs: number): Promise<RateDecision>;
}

export const rateWindowMs = 60_000;

/** The window a moment falls in, and its end. */
export function windowOf(nowMs: number): { start: number; end: number } {
  const start = Math.floor(nowMs / rateWindowMs) * rateWindowMs;
  return { start, end: start + rateWindowMs };
}

/** 429 Problem Details with Retry-After, in the shape of the other refusals. */
export function tooManyRequests(retryAfterSeconds: number): DoguError {
  return new DoguError(
    'too_many_requests',
    `Too many requests from this client; try again in ${retryAfterSeconds} second(s).`,
    { headers: { 'retry-after': String(retryAfterSeconds) }, extra: { retryAfterSeconds } },
  );
}

/** Reads DOGU_RATE_LIMIT_PER_MINUTE: unset or 0 is no limit. */
export function rateLimitPerMinuteFromEnv(env: Record<string, string | undefined>): number {
  const text = env.DOGU_RATE_LIMIT_PER_MINUTE;
  if (text === undefined || text === '') return 0;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) {
    throw new Error(`DOGU_RATE_LIMIT_PER_MINUTE must be a whole number, not '${text}'.`);
  }
  return value;
}
