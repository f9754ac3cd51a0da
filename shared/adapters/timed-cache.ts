/**
 * Promises of records by key, kept for `ttlMs` and evicted by the writes that change them: what the
 * caching store and the caching versioned documents share.
 */
const maxEntries = 10_000;

export class TimedCache {
  private readonly entries = new Map<string, { value: Promise<unknown>; expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** How many records are held, and the most it holds (the runtime's metrics show it). */
  stats(): { size: number; max: number } {
    return { size: this.entries.size, max: maxEntries };
  }

  /** Caches the promise itself, so concurrent readers of a cold key share one load. */
  cached<T>(key: string, load: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > this.now()) return hit.value as Promise<T>;
    const value = load();
    if (this.entries.size >= maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, expiresAt: this.now() + this.ttlMs });
    value.catch(() => this.entries.delete(key));
    return value;
  }

  /** Evicts after the write has landed, so no reader can cache the old record afterwards. */
  async evictAfter<T>(key: string, write: Promise<T>): Promise<T> {
    try {
      return await write;
    } finally {
      this.entries.delete(key);
    }
  }

  evict(key: string): void {
    this.entries.delete(key);
  }

  evictPrefix(prefix: string): void {
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }
}
