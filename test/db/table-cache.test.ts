import { EventEmitter } from 'node:events';
import type { Knex } from 'knex';
import type { BusListener, Delivery, EventBus } from '../../src/realtime/bus';
import { tableCache } from '../../src/db/table-cache';

/** A stand-in database that only reports statements, as knex does, and a bus to publish on. */
function setup(maxAgeMs?: number) {
  const knex = new EventEmitter() as unknown as Knex & EventEmitter;
  const listeners: BusListener[] = [];
  const bus: EventBus = {
    publish: async (deliveries: Delivery[]) => listeners.forEach((l) => l(deliveries)),
    subscribe: (l: BusListener) => {
      listeners.push(l);
      return () => {};
    },
    close: async () => {},
  };
  let version = 0;
  let loads = 0;
  let gate: Promise<void> | null = null;
  const spec = {
    tables: ['things'],
    eventTypes: ['things_changed'],
    maxAgeMs,
    load: async () => {
      loads++;
      const seen = version;
      if (gate) await gate;
      return seen;
    },
  };
  const cache = tableCache({ knex, bus }, spec);
  return {
    cache,
    knex,
    bus,
    bump: () => version++,
    loads: () => loads,
    block: () => {
      let open!: () => void;
      gate = new Promise((resolve) => (open = resolve));
      return () => {
        gate = null;
        open();
      };
    },
  };
}

const statement = (knex: EventEmitter, sql: string, uid: string, tx?: string) => knex.emit('query', { sql, __knexQueryUid: uid, __knexTxId: tx });
const settled = (knex: EventEmitter, uid: string) => knex.emit('query-response', null, { __knexQueryUid: uid });

test('loads once, then answers from memory', async () => {
  const t = setup();
  expect(await t.cache.get()).toBe(0);
  expect(t.cache.current()).toBe(0);
  await t.cache.get();
  expect(t.loads()).toBe(1);
});

test('a write statement to a watched table drops the value and holds it off until it settles', async () => {
  const t = setup();
  await t.cache.get();
  statement(t.knex, 'insert into "things" (a) values (1)', 'q1');
  t.bump();
  expect(t.cache.current()).toBeUndefined();
  // While the write is in flight every caller reads the database, and nothing is kept.
  expect(await t.cache.get()).toBe(1);
  expect(t.cache.current()).toBeUndefined();
  settled(t.knex, 'q1');
  expect(await t.cache.get()).toBe(1);
  expect(t.cache.current()).toBe(1);
  // Other tables and reads change nothing.
  statement(t.knex, 'insert into "other_things" (a) values (1)', 'q2');
  statement(t.knex, 'select * from things', 'q3');
  expect(t.cache.current()).toBe(1);
});

test('in a transaction the hold lasts until it ends', async () => {
  const t = setup();
  await t.cache.get();
  statement(t.knex, 'delete from "things" where "id" = ?', 'q1', 'tx1');
  settled(t.knex, 'q1');
  expect(t.cache.current()).toBeUndefined();
  await t.cache.get();
  expect(t.cache.current()).toBeUndefined();
  statement(t.knex, 'COMMIT;', 'q2', 'tx1');
  t.bump();
  expect(await t.cache.get()).toBe(1);
  expect(t.cache.current()).toBe(1);
});

test("the feature's bus events drop the value (another process changed the tables)", async () => {
  const t = setup();
  await t.cache.get();
  await t.bus.publish([{ realmId: 1, userIds: [], event: { type: 'unrelated' } }]);
  expect(t.cache.current()).toBe(0);
  t.bump();
  await t.bus.publish([{ realmId: 1, userIds: [2], event: { type: 'things_changed' } }]);
  expect(t.cache.current()).toBeUndefined();
  expect(await t.cache.get()).toBe(1);
});

test('a read that overlapped an invalidation is answered but not kept', async () => {
  const t = setup();
  const open = t.block();
  const pending = t.cache.get();
  t.cache.invalidate();
  t.bump();
  open();
  expect(await pending).toBe(0);
  expect(t.cache.current()).toBeUndefined();
  expect(await t.cache.get()).toBe(1);
  expect(t.cache.current()).toBe(1);
});

test('with maxAgeMs, a value older than that is read again', async () => {
  jest.useFakeTimers({ now: 1_000_000, doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
  try {
    const t = setup(60_000);
    expect(await t.cache.get()).toBe(0);
    t.bump();
    jest.setSystemTime(1_000_000 + 59_000);
    expect(await t.cache.get()).toBe(0);
    expect(t.loads()).toBe(1);
    jest.setSystemTime(1_000_000 + 61_000);
    expect(t.cache.current()).toBeUndefined();
    expect(await t.cache.get()).toBe(1);
    expect(t.loads()).toBe(2);
  } finally {
    jest.useRealTimers();
  }
});
