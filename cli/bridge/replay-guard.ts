/**
 * Remembers the `jti` of every token until it expires, so a token copied off the wire opens no
 * second tunnel. Bounded: when full, the guard refuses new tokens rather than forgetting old ones
 * (forgetting would let a replay through).
 */
export class ReplayGuard {
  private readonly seen = new Map<string, number>();

  constructor(private readonly maxEntries = 200_000) {}

  /** True the first time a jti is seen before its expiry (Unix seconds); false for a replay or when full. */
  admit(jti: string, expiresAt: number, nowSeconds: number): boolean {
    if (this.seen.has(jti)) return false;
    if (this.seen.size >= this.maxEntries) this.prune(nowSeconds);
    if (this.seen.size >= this.maxEntries) return false;
    this.seen.set(jti, expiresAt);
    return true;
  }

  prune(nowSeconds: number): void {
    for (const [jti, expiresAt] of this.seen) if (expiresAt < nowSeconds) this.seen.delete(jti);
  }

  get size(): number {
    return this.seen.size;
  }
}
