import { TurnBatch } from '../../src/log';

/** The production log stream: the lines of one event-loop turn reach the output in one write. */
function recorder() {
  const writes: string[] = [];
  let syncFlushes = 0;
  const target = {
    write: (text: string) => void writes.push(text),
    flush: (cb?: (error?: Error) => void) => cb?.(),
    flushSync: () => void syncFlushes++,
  };
  return { target, writes, syncFlushes: () => syncFlushes };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

test('lines of one turn go out together, in order, after the turn', async () => {
  const { target, writes } = recorder();
  const batch = new TurnBatch(target);
  batch.write('{"a":1}\n');
  batch.write('{"b":2}\n');
  expect(writes).toEqual([]);
  await nextTurn();
  expect(writes).toEqual(['{"a":1}\n{"b":2}\n']);
  batch.write('{"c":3}\n');
  await nextTurn();
  expect(writes).toEqual(['{"a":1}\n{"b":2}\n', '{"c":3}\n']);
  await nextTurn();
  expect(writes).toHaveLength(2);
});

test('flush and flushSync pass the pending lines on at once', async () => {
  const { target, writes, syncFlushes } = recorder();
  const batch = new TurnBatch(target);
  batch.write('one\n');
  batch.flushSync();
  expect(writes).toEqual(['one\n']);
  expect(syncFlushes()).toBe(1);
  batch.write('two\n');
  await new Promise<void>((resolve) => batch.flush(() => resolve()));
  expect(writes).toEqual(['one\n', 'two\n']);
  await nextTurn();
  expect(writes).toEqual(['one\n', 'two\n']);
});
