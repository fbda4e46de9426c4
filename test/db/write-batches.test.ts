import { WriteBatcher } from '../../src/db/write-batches';

/** The group-commit queue on its own: which items share a write, and what each gets back. */

function recorder(options: { maxInFlight?: number; maxWeight?: number; fail?: (items: number[]) => boolean } = {}) {
  const writes: number[][] = [];
  const release: (() => void)[] = [];
  const batcher = new WriteBatcher<number, string>(
    async (items) => {
      writes.push(items);
      await new Promise<void>((resolve) => release.push(resolve));
      if (options.fail?.(items)) throw new Error(`failed ${items.join(',')}`);
      return items.map((i) => `done ${i}`);
    },
    { maxInFlight: options.maxInFlight ?? 1, maxWeight: options.maxWeight ?? 100, weigh: (i) => i },
  );
  return { batcher, writes, release };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

test('items submitted in one turn share a write, and later ones wait for it to end', async () => {
  const { batcher, writes, release } = recorder();
  const first = [1, 2, 3].map((i) => batcher.submit(i));
  await turn();
  expect(writes).toEqual([[1, 2, 3]]);
  const second = [4, 5].map((i) => batcher.submit(i));
  await turn();
  // One write in flight: 4 and 5 wait.
  expect(writes).toEqual([[1, 2, 3]]);
  release.shift()!();
  expect(await Promise.all(first)).toEqual(['done 1', 'done 2', 'done 3']);
  await turn();
  expect(writes).toEqual([
    [1, 2, 3],
    [4, 5],
  ]);
  release.shift()!();
  expect(await Promise.all(second)).toEqual(['done 4', 'done 5']);
  expect(batcher.stats).toEqual({ writes: 2, items: 5 });
});

test('a write takes items up to the weight limit, and at least one', async () => {
  const { batcher, writes, release } = recorder({ maxWeight: 10 });
  const all = [4, 5, 2, 30, 1].map((i) => batcher.submit(i));
  for (let i = 0; i < 4; i++) {
    await turn();
    release.shift()?.();
  }
  await Promise.all(all);
  expect(writes).toEqual([[4, 5], [2], [30], [1]]);
});

test('a second write may run alongside the first when allowed', async () => {
  const { batcher, writes, release } = recorder({ maxInFlight: 2 });
  const a = batcher.submit(1);
  await turn();
  const b = batcher.submit(2);
  await turn();
  expect(writes).toEqual([[1], [2]]);
  release.forEach((r) => r());
  expect(await Promise.all([a, b])).toEqual(['done 1', 'done 2']);
});

test("a failed write fails each of its items, and not the next write's", async () => {
  const { batcher, release } = recorder({ fail: (items) => items.includes(2) });
  const failed = [1, 2].map((i) => batcher.submit(i).catch((e: Error) => e.message));
  await turn();
  const later = batcher.submit(3);
  release.shift()!();
  expect(await Promise.all(failed)).toEqual(['failed 1,2', 'failed 1,2']);
  await turn();
  release.shift()!();
  expect(await later).toBe('done 3');
});

test('a write that throws before returning a promise fails its items', async () => {
  const batcher = new WriteBatcher<number, number>(
    () => {
      throw new Error('no connection');
    },
    { maxInFlight: 1, maxWeight: 10, weigh: () => 1 },
  );
  await expect(batcher.submit(1)).rejects.toThrow('no connection');
  // The batcher is still usable.
  await expect(batcher.submit(2)).rejects.toThrow('no connection');
});
