import type { Knex } from 'knex';
import type { Config } from '../config';
import { RateLimits } from '../core/rate-limits/limiter';
import { AuthCache } from '../core/users/auth-cache';
import type { AppDeps } from '../core/deps';
import { InProcessBus } from '../realtime/bus';

/** What the actions need in the CLI, which serves no clients: its bus has no listeners and its cache is never read. */
export function organizationDeps(knex: Knex, config: Config, realmId: number): AppDeps {
  const rateLimits = new RateLimits(config.rateLimitRules, config.rateLimiting);
  return { config, knex, bus: new InProcessBus(), realmId, authCache: new AuthCache(), rateLimits };
}
