import { SnapshotCache } from '../../src/db/user-value-cache';

/** A read the test finishes by hand. */
function deferredRead(value: string) {
  let finish!: () => void;
  let fail!: (error: Error) => void;
  const promise = new Promise<string>((resolve, reject) => {
    finish = () => resolve(value);
    fail = reject;
  });
  return { read: () => promise, finish, fail };
}

describe('SnapshotCache', () => {
  test('callers arriving while a read is under way share it, and the value is kept', async () => {
    const cache = new SnapshotCache<string>(60_000);
    let reads = 0;
    const slow = deferredRead('v1');
    const read = () => {
      reads++;
      return slow.read();
    };
    const all = Promise.all([cache.get(read), cache.get(read), cache.get(read)]);
    slow.finish();
    expect(await all).toEqual(['v1', 'v1', 'v1']);
    expect(reads).toBe(1);
    expect(await cache.get(read)).toBe('v1');
    expect(reads).toBe(1);
  });

  test('a caller after a change does not share a read that began before it, and that read is not kept', async () => {
    const cache = new SnapshotCache<string>(60_000);
    const before = deferredRead('old');
    const first = cache.get(before.read);
    cache.forget();
    const after = deferredRead('new');
    const second = cache.get(after.read);
    before.finish();
    after.finish();
    expect(await first).toBe('old');
    expect(await second).toBe('new');
    expect(await cache.get(async () => 'unused')).toBe('new');
  });

  test('a write in flight: reads are not shared across it nor kept during it', async () => {
    const cache = new SnapshotCache<string>(60_000);
    const during = deferredRead('during');
    cache.hold('query:1');
    const first = cache.get(during.read);
    during.finish();
    expect(await first).toBe('during');
    cache.release('query:1');
    expect(await cache.get(async () => 'after')).toBe('after');
  });

  test('a failed read fails its sharers, and the next caller reads again', async () => {
    const cache = new SnapshotCache<string>(60_000);
    const broken = deferredRead('never');
    const a = cache.get(broken.read);
    const b = cache.get(broken.read);
    broken.fail(new Error('connection lost'));
    await expect(a).rejects.toThrow('connection lost');
    await expect(b).rejects.toThrow('connection lost');
    expect(await cache.get(async () => 'again')).toBe('again');
  });

  test('an expired value is read again', async () => {
    let now = 0;
    const cache = new SnapshotCache<string>(5_000, () => now);
    expect(await cache.get(async () => 'first')).toBe('first');
    now = 4_999;
    expect(await cache.get(async () => 'second')).toBe('first');
    now = 5_000;
    expect(await cache.get(async () => 'second')).toBe('second');
  });
});
