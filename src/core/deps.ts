import type { Knex } from 'knex';
import type { Config } from '../config';
import type { RateLimits } from './rate-limits/limiter';
import type { AuthCache } from './users/auth-cache';
import type { EventBus } from '../realtime/bus';
import type { Realtime } from '../realtime/realtime';

/** What every action and adapter needs: configuration, the database, the event bus, the realm. */
export interface AppDeps {
  config: Config;
  knex: Knex;
  bus: EventBus;
  /** This server hosts one organization; every row still carries its id. */
  realmId: number;
  /** Event queues and live subscriptions; absent in tools that serve no clients (e.g. the CLI). */
  realtime?: Realtime;
  /** Recent API-key authentications; actions that change keys or accounts invalidate it. */
  authCache: AuthCache;
  /** Request and login counters (Zulip's rate limits). */
  rateLimits: RateLimits;
}
