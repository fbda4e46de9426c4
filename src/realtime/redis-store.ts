import crypto from 'node:crypto';
import type { QueueDescriptor } from './descriptor';
import type { RedisConnections } from './redis';
import { DEFAULT_MAX_QUEUE_EVENTS, QueueBatch, QueueStore, ReadResult, StoredEvent } from './store';

/**
 * Event queues in Redis, shared by every server process of a deployment. Per queue: a hash
 * (descriptor, id counters, last access, hold, timeout) and a list of event JSON, each stored with
 * its id first (`{"id":N,...}`) so scripts can read it without decoding. Sets index queues by user
 * (and all_public_streams queues by realm); a sorted set orders queues by the time they may be
 * collected. Every multi-step change is one Lua script, so processes never see half an update.
 */

// Shared Lua: removes a queue and its index entries. q = hash key, e = list key, gc = sorted set.
const DROP = `
local function drop(q, e, gc)
  local id = redis.call('HGET', q, 'i')
  local u = redis.call('HGET', q, 'u')
  local pk = redis.call('HGET', q, 'pk')
  if id then
    if u then redis.call('SREM', u, id) end
    if pk and pk ~= '' then redis.call('SREM', pk, id) end
    redis.call('ZREM', gc, id)
  end
  redis.call('DEL', q, e)
end
local function collectAfter(q, now, hold)
  local t = tonumber(redis.call('HGET', q, 't'))
  local score = now + t
  if hold + t > score then score = hold + t end
  return score
end
local function keep(q, e, score, now)
  -- Safety net for deployments that stop collecting: keys outlive their queue by an hour at most.
  local ttl = score - now + 3600000
  redis.call('PEXPIRE', q, ttl)
  redis.call('PEXPIRE', e, ttl)
end
`;

// KEYS: q, e, gc. ARGV: max events, then the events (JSON objects). Returns the next id, -1 for a
// missing queue, -2 when the queue overflowed and was dropped.
const APPEND = `${DROP}
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
local count = #ARGV - 1
if redis.call('LLEN', KEYS[2]) + count > tonumber(ARGV[1]) then
  drop(KEYS[1], KEYS[2], KEYS[3])
  return -2
end
local n = tonumber(redis.call('HGET', KEYS[1], 'n'))
for i = 2, #ARGV do
  redis.call('RPUSH', KEYS[2], '{"id":' .. n .. ',' .. string.sub(ARGV[i], 2))
  n = n + 1
end
redis.call('HSET', KEYS[1], 'n', n)
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) end
return n
`;

// KEYS: q, e, gc. ARGV: last event id, now. Prunes acknowledged events, returns the rest.
const READ = `${DROP}
if redis.call('EXISTS', KEYS[1]) == 0 then return {'missing'} end
local last = tonumber(ARGV[1])
local now = tonumber(ARGV[2])
local hold = tonumber(redis.call('HGET', KEYS[1], 'h'))
redis.call('HSET', KEYS[1], 'a', now)
local score = collectAfter(KEYS[1], now, hold)
redis.call('ZADD', KEYS[3], score, redis.call('HGET', KEYS[1], 'i'))
keep(KEYS[1], KEYS[2], score, now)
local p = tonumber(redis.call('HGET', KEYS[1], 'p'))
if last < p then return {'pruned'} end
while true do
  local head = redis.call('LINDEX', KEYS[2], 0)
  if not head then break end
  local id = tonumber(string.match(head, '^{"id":(%-?%d+),'))
  if id > last then break end
  redis.call('LPOP', KEYS[2])
  p = id
end
redis.call('HSET', KEYS[1], 'p', p)
if p ~= last then return {'unknown'} end
local held = '0'
if hold > now then held = '1' end
return {'ok', redis.call('LRANGE', KEYS[2], 0, -1), held}
`;

// KEYS: q, e, gc. ARGV: hold until (0: released), now.
const HOLD = `${DROP}
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local hold = tonumber(ARGV[1])
local now = tonumber(ARGV[2])
redis.call('HSET', KEYS[1], 'h', hold, 'a', now)
local score = collectAfter(KEYS[1], now, hold)
redis.call('ZADD', KEYS[3], score, redis.call('HGET', KEYS[1], 'i'))
keep(KEYS[1], KEYS[2], score, now)
return 1
`;

// KEYS: q, e, gc.
const DELETE = `${DROP}
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
drop(KEYS[1], KEYS[2], KEYS[3])
return 1
`;

// KEYS: gc. ARGV: now, limit, key prefix. Removes queues whose collection time has passed.
const COLLECT = `${DROP}
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
for _, id in ipairs(ids) do
  local q = ARGV[3] .. 'q:' .. id
  drop(q, q .. ':e', KEYS[1])
  redis.call('ZREM', KEYS[1], id)
end
return ids
`;

// KEYS: user's set, gc. ARGV: max queues, the new queue's id, key prefix, now. Removes the user's
// longest idle queues beyond the bound (queues with a waiting request last, never the new one).
const EVICT = `${DROP}
local excess = redis.call('SCARD', KEYS[1]) - tonumber(ARGV[1])
if excess <= 0 then return {} end
local now = tonumber(ARGV[4])
local candidates = {}
for _, id in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  if id ~= ARGV[2] then
    local q = ARGV[3] .. 'q:' .. id
    local a = tonumber(redis.call('HGET', q, 'a'))
    if not a then
      -- The index outlived its queue (keys expire as a safety net): only the entry goes.
      redis.call('SREM', KEYS[1], id)
      redis.call('ZREM', KEYS[2], id)
      excess = excess - 1
    else
      local h = tonumber(redis.call('HGET', q, 'h')) or 0
      if h > now then a = a + 2 * now end
      table.insert(candidates, {id, a})
    end
  end
end
table.sort(candidates, function(x, y) return x[2] < y[2] end)
local evicted = {}
for i = 1, math.min(excess, #candidates) do
  local id = candidates[i][1]
  local q = ARGV[3] .. 'q:' .. id
  drop(q, q .. ':e', KEYS[2])
  table.insert(evicted, id)
end
return evicted
`;

interface Scripts {
  parleyAppend(q: string, e: string, gc: string, max: number, ...events: string[]): Promise<number>;
  parleyRead(q: string, e: string, gc: string, last: number, now: number): Promise<[string, string[]?, string?]>;
  parleyHold(q: string, e: string, gc: string, until: number, now: number): Promise<number>;
  parleyDelete(q: string, e: string, gc: string): Promise<number>;
  parleyCollect(gc: string, now: number, limit: number, prefix: string): Promise<string[]>;
  parleyEvict(userSet: string, gc: string, max: number, newId: string, prefix: string, now: number): Promise<string[]>;
}

const DESCRIPTOR_CACHE_SIZE = 50_000;

export class RedisQueueStore implements QueueStore {
  maxEvents = DEFAULT_MAX_QUEUE_EVENTS;
  /** Distinguishes this process's own announcements from other processes'. */
  private readonly origin = crypto.randomUUID();
  private readonly descriptors = new Map<string, QueueDescriptor>();
  private readonly scripts: Scripts;

  constructor(private readonly redis: RedisConnections) {
    const command = redis.command;
    command.defineCommand('parleyAppend', { numberOfKeys: 3, lua: APPEND });
    command.defineCommand('parleyRead', { numberOfKeys: 3, lua: READ });
    command.defineCommand('parleyHold', { numberOfKeys: 3, lua: HOLD });
    command.defineCommand('parleyDelete', { numberOfKeys: 3, lua: DELETE });
    command.defineCommand('parleyCollect', { numberOfKeys: 1, lua: COLLECT });
    command.defineCommand('parleyEvict', { numberOfKeys: 2, lua: EVICT });
    this.scripts = command as unknown as Scripts;
  }

  private key(...parts: (string | number)[]): string {
    return this.redis.prefix + parts.join(':');
  }

  private queueKeys(queueId: string): [string, string, string] {
    const q = this.key('q', queueId);
    return [q, `${q}:e`, this.key('gc')];
  }

  async create(descriptor: QueueDescriptor, maxPerUser = Infinity): Promise<string[]> {
    const [q, e, gc] = this.queueKeys(descriptor.id);
    const userSet = this.key('u', descriptor.realmId, descriptor.userId);
    const publicSet = descriptor.allPublicStreams ? this.key('pub', descriptor.realmId) : '';
    const now = Date.now();
    const timeoutMs = descriptor.timeoutSecs * 1000;
    const multi = this.redis.command.multi();
    multi.hset(q, { i: descriptor.id, d: JSON.stringify(descriptor), n: 0, p: -1, a: now, h: 0, t: timeoutMs, u: userSet, pk: publicSet });
    multi.pexpire(q, timeoutMs + 3_600_000);
    multi.del(e);
    multi.sadd(userSet, descriptor.id);
    if (publicSet) multi.sadd(publicSet, descriptor.id);
    multi.zadd(gc, now + timeoutMs, descriptor.id);
    await multi.exec();
    this.remember(descriptor);
    if (!Number.isFinite(maxPerUser)) return [];
    const evicted = await this.scripts.parleyEvict(userSet, gc, maxPerUser, descriptor.id, this.redis.prefix, Date.now());
    for (const id of evicted) this.descriptors.delete(id);
    // Requests waiting on them in other processes learn of it as they would of an event.
    if (evicted.length > 0) await this.redis.publish('appended', JSON.stringify({ origin: this.origin, queueIds: evicted }));
    return evicted;
  }

  private remember(descriptor: QueueDescriptor): void {
    if (this.descriptors.size >= DESCRIPTOR_CACHE_SIZE) {
      // Forget the oldest entry (Map keeps insertion order); descriptors never change, so any may go.
      this.descriptors.delete(this.descriptors.keys().next().value as string);
    }
    this.descriptors.set(descriptor.id, descriptor);
  }

  async descriptor(queueId: string): Promise<QueueDescriptor | null> {
    const cached = this.descriptors.get(queueId);
    if (cached) return cached;
    const raw = await this.redis.command.hget(this.key('q', queueId), 'd');
    if (!raw) return null;
    const descriptor = JSON.parse(raw) as QueueDescriptor;
    this.remember(descriptor);
    return descriptor;
  }

  async queueIdsForUsers(realmId: number, userIds: number[]): Promise<string[][]> {
    return Promise.all(userIds.map((id) => this.redis.command.smembers(this.key('u', realmId, id))));
  }

  async allPublicStreamsQueueIds(realmId: number): Promise<string[]> {
    return this.redis.command.smembers(this.key('pub', realmId));
  }

  async append(batches: QueueBatch[]): Promise<string[]> {
    const results = await Promise.all(
      batches
        .filter((b) => b.events.length > 0)
        .map(async ({ queueId, events }) => {
          const [q, e, gc] = this.queueKeys(queueId);
          const next = await this.scripts.parleyAppend(q, e, gc, this.maxEvents, ...events.map((event) => JSON.stringify(event)));
          if (next === -1) this.descriptors.delete(queueId);
          return next === -1 ? null : queueId;
        }),
    );
    const touched = [...new Set(results.filter((id): id is string => id !== null))];
    if (touched.length > 0) await this.redis.publish('appended', JSON.stringify({ origin: this.origin, queueIds: touched }));
    return touched;
  }

  async read(queueId: string, lastEventId: number): Promise<ReadResult> {
    const [q, e, gc] = this.queueKeys(queueId);
    const [kind, events, held] = await this.scripts.parleyRead(q, e, gc, lastEventId, Date.now());
    switch (kind) {
      case 'ok':
        return { kind: 'ok', events: (events ?? []).map((raw) => JSON.parse(raw) as StoredEvent), held: held === '1' };
      case 'pruned':
        return { kind: 'pruned', lastEventId };
      case 'unknown':
        return { kind: 'unknown-event', lastEventId };
      default:
        this.descriptors.delete(queueId);
        return { kind: 'missing' };
    }
  }

  async peek(queueId: string): Promise<StoredEvent[]> {
    const raw = await this.redis.command.lrange(this.key('q', queueId, 'e'), 0, -1);
    return raw.map((item) => JSON.parse(item) as StoredEvent);
  }

  async hold(queueId: string, until: number | null): Promise<void> {
    const [q, e, gc] = this.queueKeys(queueId);
    await this.scripts.parleyHold(q, e, gc, until ?? 0, Date.now());
  }

  async delete(queueId: string): Promise<boolean> {
    const [q, e, gc] = this.queueKeys(queueId);
    this.descriptors.delete(queueId);
    const deleted = (await this.scripts.parleyDelete(q, e, gc)) === 1;
    // A request waiting on the queue in another process learns of it as it would of an event.
    if (deleted) await this.redis.publish('appended', JSON.stringify({ origin: this.origin, queueIds: [queueId] }));
    return deleted;
  }

  async collectExpired(now: number): Promise<string[]> {
    const removed: string[] = [];
    for (;;) {
      const batch = await this.scripts.parleyCollect(this.key('gc'), now, 500, this.redis.prefix);
      for (const id of batch) this.descriptors.delete(id);
      removed.push(...batch);
      if (batch.length < 500) return removed;
    }
  }

  async count(): Promise<number> {
    return this.redis.command.zcard(this.key('gc'));
  }

  async onAppended(listener: (queueIds: string[]) => void): Promise<() => void> {
    return this.redis.listen('appended', (message) => {
      const { origin, queueIds } = JSON.parse(message) as { origin: string; queueIds: string[] };
      // This process woke its own waiters when it appended.
      if (origin !== this.origin) listener(queueIds);
    });
  }

  /** Tells other processes that a new request took over the queue (their waiter on it ends). */
  async announceTakeover(queueId: string): Promise<void> {
    await this.redis.publish('takeover', JSON.stringify({ origin: this.origin, queueId }));
  }

  async onTakeover(listener: (queueId: string) => void): Promise<() => void> {
    return this.redis.listen('takeover', (message) => {
      const { origin, queueId } = JSON.parse(message) as { origin: string; queueId: string };
      if (origin !== this.origin) listener(queueId);
    });
  }

  async close(): Promise<void> {
    this.descriptors.clear();
  }
}
