import type Redis from 'ioredis';
import { RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { ApiError } from '../../errors';
import type { RateDomain, RateRule, RateRules } from '../../config/rate-rules';

/** Where a key stands after a counted request, for the X-RateLimit-* headers. */
export interface RateLimitState {
  /** Requests allowed in the longest window. */
  limit: number;
  remaining: number;
  /** Seconds until every window of the key is empty again. */
  resetSeconds: number;
}

/** Zulip's answer over a limit: `retry-after` in seconds (a float, as Zulip sends it), in the body and the header. */
export function rateLimitedError(secondsToFreedom: number, limit: number): ApiError {
  return new ApiError(
    'RATE_LIMIT_HIT',
    'API usage exceeded rate limit',
    429,
    { 'retry-after': secondsToFreedom },
    {
      'Retry-After': String(secondsToFreedom),
      'X-RateLimit-Limit': String(limit),
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String(Math.floor(Date.now() / 1000 + secondsToFreedom)),
    },
  );
}

/** The headers Zulip adds to every answer a limit was applied to. */
export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(state.limit),
    'X-RateLimit-Remaining': String(state.remaining),
    'X-RateLimit-Reset': String(Math.floor(Date.now() / 1000 + state.resetSeconds)),
  };
}

export interface RateLimitStore {
  /** ioredis connection shared with the rest of the process. */
  client: Redis;
  /** Key prefix shared by every process serving the same database. */
  prefix: string;
}

type Counter = { rule: RateRule; limiter: RateLimiterAbstract };

/**
 * Request counters per domain and key (rate-limiter-flexible, fixed windows). Without a store they
 * live in this process; with Redis every process serving the database shares them, and a Redis
 * failure falls back to counting in process rather than refusing or letting everything through.
 */
export class RateLimits {
  private readonly counters: Record<RateDomain, Counter[]>;

  constructor(
    rules: RateRules,
    readonly enabled: boolean,
    store: RateLimitStore | null = null,
  ) {
    const counters = {} as Record<RateDomain, Counter[]>;
    for (const [domain, domainRules] of Object.entries(rules) as [RateDomain, RateRule[]][]) {
      counters[domain] = domainRules.map((rule) => {
        const options = { points: rule.requests, duration: rule.seconds, keyPrefix: `ratelimit:${domain}:${rule.seconds}` };
        const limiter = store
          ? new RateLimiterRedis({
              ...options,
              storeClient: store.client,
              keyPrefix: `${store.prefix}${options.keyPrefix}`,
              insuranceLimiter: new RateLimiterMemory(options),
            })
          : new RateLimiterMemory(options);
        return { rule, limiter };
      });
    }
    this.counters = counters;
  }

  /**
   * Counts one request of `key`. Throws RATE_LIMIT_HIT once the key is over any rule of the domain;
   * null when rate limiting is off.
   */
  async hit(domain: RateDomain, key: string): Promise<RateLimitState | null> {
    if (!this.enabled) return null;
    const counters = this.counters[domain];
    // One rule is the common case: no array of promises for it.
    const results = counters.length === 1 ? [await consume(counters[0].limiter, key)] : await Promise.all(counters.map((c) => consume(c.limiter, key)));
    return stateOf(counters, results);
  }

  /**
   * Counts one API request, whatever its transport (REST, GraphQL over HTTP, an operation on a
   * GraphQL socket): by user when authenticated, else by the client's address.
   */
  countRequest(userId: number | null, address: string | undefined): Promise<RateLimitState | null> {
    return userId !== null ? this.hit('api_by_user', String(userId)) : this.hit('api_by_ip', address ?? 'unknown');
  }

  /** Throws RATE_LIMIT_HIT while `key` has used up the domain, without counting anything. */
  async check(domain: RateDomain, key: string): Promise<void> {
    if (!this.enabled) return;
    const counters = this.counters[domain];
    const results = await Promise.all(counters.map(async ({ rule, limiter }) => ({ rule, res: await limiter.get(key) })));
    const over = results.filter(({ rule, res }) => res !== null && res.consumedPoints >= rule.requests);
    if (over.length > 0) {
      throw rateLimitedError(Math.max(...over.map(({ res }) => secondsOf(res!))), longest(counters).requests);
    }
  }

  /** Counts one request of `key` without refusing it (failures recorded after the fact). */
  async record(domain: RateDomain, key: string): Promise<void> {
    if (!this.enabled) return;
    await Promise.all(this.counters[domain].map(({ limiter }) => limiter.penalty(key)));
  }

  /** Forgets what `key` has used (a successful login clears its failures). */
  async clear(domain: RateDomain, key: string): Promise<void> {
    if (!this.enabled) return;
    await Promise.all(this.counters[domain].map(({ limiter }) => limiter.delete(key)));
  }
}

const secondsOf = (res: RateLimiterRes) => Math.max(res.msBeforeNext, 0) / 1000;

const longest = (counters: Counter[]) => counters[counters.length - 1].rule;

/** The limiter's answer whether or not it refused (it rejects with the same record when over). */
async function consume(limiter: RateLimiterAbstract, key: string): Promise<RateLimiterRes> {
  try {
    return await limiter.consume(key);
  } catch (error) {
    if (error instanceof RateLimiterRes) return error;
    throw error;
  }
}

function stateOf(counters: Counter[], results: RateLimiterRes[]): RateLimitState {
  let remaining = Infinity;
  let resetSeconds = 0;
  let refusedFor = -1;
  for (let i = 0; i < counters.length; i++) {
    const res = results[i];
    const seconds = secondsOf(res);
    if (res.consumedPoints > counters[i].rule.requests) refusedFor = Math.max(refusedFor, seconds);
    remaining = Math.min(remaining, res.remainingPoints);
    resetSeconds = Math.max(resetSeconds, seconds);
  }
  const limit = longest(counters).requests;
  if (refusedFor >= 0) throw rateLimitedError(refusedFor, limit);
  return { limit, remaining, resetSeconds };
}
