/**
 * Counts events per key over a sliding window, in memory. Used to slow
 * password guessing (429 with Retry-After) without ever locking an account
 * for good: an entry forgets each event once the window has passed.
 */
export class SlidingWindowLimiter {
  private readonly events = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly maxKeys = 100_000,
  ) {}

  private recent(key: string, now: number): number[] {
    const kept = (this.events.get(key) ?? []).filter((t) => now - t < this.windowMs);
    if (kept.length === 0) this.events.delete(key);
    else this.events.set(key, kept);
    return kept;
  }

  /** Seconds to wait before the next attempt under this key, 0 when allowed. */
  retryAfter(key: string, now = Date.now()): number {
    const kept = this.recent(key, now);
    if (kept.length < this.limit) return 0;
    const oldest = kept[kept.length - this.limit] as number;
    return Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000));
  }

  record(key: string, now = Date.now()): void {
    if (!this.events.has(key) && this.events.size >= this.maxKeys) {
      const first = this.events.keys().next().value;
      if (first !== undefined) this.events.delete(first);
    }
    this.events.set(key, [...this.recent(key, now), now]);
  }

  clear(key: string): void {
    this.events.delete(key);
  }
}
