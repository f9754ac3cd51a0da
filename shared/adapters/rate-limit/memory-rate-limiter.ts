/** The embedded runtime's rate limiter: one process serves every request, so a map is the truth. */
import { type ClientRateLimiter, type RateDecision, windowOf } from '../../domain/rate-limit.ts';

/** Clients remembered at most; the oldest windows are forgotten first. */
const maxClients = 10_000;

export class MemoryRateLimiter implements ClientRateLimiter {
  readonly #counts = new Map<string, { start: number; count: number }>();

  constructor(private readonly perMinute: number) {}

  async take(clientId: string, nowMs: number): Promise<RateDecision> {
    const { start, end } = windowOf(nowMs);
    const current = this.#counts.get(clientId);
    const count = current && current.start === start ? current.count + 1 : 1;
    this.#counts.delete(clientId);
    if (this.#counts.size >= maxClients) this.#counts.delete(this.#counts.keys().next().value!);
    this.#counts.set(clientId, { start, count });
    return {
      allowed: count <= this.perMinute,
      retryAfterSeconds: Math.max(1, Math.ceil((end - nowMs) / 1000)),
    };
  }
}
