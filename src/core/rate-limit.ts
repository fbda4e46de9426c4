import { ApiError } from '../errors';

/**
 * A sliding-window counter of failed attempts per key, kept in memory. Used for login attempts:
 * Zulip's default allows 5 failures per 30 minutes for one username.
 */
export class AttemptLimiter {
  private attempts = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Throws RATE_LIMIT_HIT while the key has used up its attempts. */
  check(key: string): void {
    const recent = this.recent(key);
    if (recent.length >= this.limit) {
      const retryAfter = Math.max(1, Math.ceil((recent[0] + this.windowMs - this.now()) / 1000));
      throw new ApiError('RATE_LIMIT_HIT', 'API usage exceeded rate limit', 429, { 'retry-after': retryAfter }, {
        'Retry-After': String(retryAfter),
        'X-RateLimit-Limit': String(this.limit),
        'X-RateLimit-Remaining': '0',
        'X-RateLimit-Reset': String(Math.ceil((recent[0] + this.windowMs) / 1000)),
      });
    }
  }

  fail(key: string): void {
    const recent = this.recent(key);
    recent.push(this.now());
    this.attempts.set(key, recent);
  }

  clear(key: string): void {
    this.attempts.delete(key);
  }

  private recent(key: string): number[] {
    const cutoff = this.now() - this.windowMs;
    const kept = (this.attempts.get(key) ?? []).filter((t) => t > cutoff);
    if (kept.length === 0) this.attempts.delete(key);
    return kept;
  }
}
