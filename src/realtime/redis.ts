import type { Knex } from 'knex';
import Redis from 'ioredis';
import { describeFailure } from '../failure-log';
import { log } from '../log';

/**
 * The two Redis connections a server process uses when REDIS_URL is set: one for commands, one in
 * subscriber mode that receives every channel this process listens to (bus events, queue
 * notifications). Waiting requests never hold a connection of their own.
 */
export class RedisConnections {
  readonly command: Redis;
  private readonly subscriber: Redis;
  private readonly handlers = new Map<string, Set<(message: string) => void>>();

  private constructor(
    url: string,
    /** Key and channel prefix shared by every process serving the same database. */
    readonly prefix: string,
  ) {
    const options = { maxRetriesPerRequest: 3, enableAutoPipelining: true };
    this.command = new Redis(url, options);
    this.subscriber = new Redis(url, { maxRetriesPerRequest: 3 });
    this.subscriber.on('message', (channel: string, message: string) => {
      for (const handler of this.handlers.get(channel) ?? []) {
        try {
          handler(message);
        } catch (error) {
          log().error(`handling a Redis message on ${channel} failed: ${describeFailure(error)}`);
        }
      }
    });
    for (const client of [this.command, this.subscriber]) {
      client.on('error', (error: Error) => log().error(`Redis connection error: ${error.message}`));
    }
  }

  static async open(url: string, knex: Knex, realmId: number): Promise<RedisConnections> {
    const connections = new RedisConnections(url, await namespaceFor(knex, realmId));
    await connections.command.ping();
    return connections;
  }

  /** Calls `handler` for every message on the (prefixed) channel; resolves once subscribed. */
  async listen(channel: string, handler: (message: string) => void): Promise<() => void> {
    const full = this.prefix + channel;
    if (!this.handlers.has(full)) {
      this.handlers.set(full, new Set());
      await this.subscriber.subscribe(full);
    }
    this.handlers.get(full)!.add(handler);
    return () => this.handlers.get(full)?.delete(handler);
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.command.publish(this.prefix + channel, message);
  }

  async close(): Promise<void> {
    this.handlers.clear();
    await Promise.allSettled([this.subscriber.quit(), this.command.quit()]);
  }
}

/**
 * Processes serving the same database must share keys, and processes serving different databases
 * (e.g. test servers on one Redis) must not: the prefix is derived from the organization's row,
 * which every process of a deployment reads identically.
 */
export async function namespaceFor(knex: Knex, realmId: number): Promise<string> {
  const row = await knex('realms').where('id', realmId).first(knex.raw("md5(string_id || ':' || id || ':' || extract(epoch from date_created)::text) as ns"));
  return `parley:${String(row.ns).slice(0, 12)}:`;
}
