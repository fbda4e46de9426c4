import { WakeLoop } from '../../src/core/wake-loop';
import { waitUntil } from '../helpers/wait';

/** A pass that waits until released, counting how many began. */
function gatedSteps(idleWait: number | null = null) {
  let passes = 0;
  let release: (() => void) | null = null;
  const steps = {
    pass: () =>
      new Promise<void>((resolve) => {
        passes++;
        release = resolve;
      }),
    idle: async () => idleWait,
  };
  return {
    steps,
    passes: () => passes,
    finishPass: async () => {
      while (!release) await new Promise((resolve) => setImmediate(resolve));
      const done = release;
      release = null;
      done();
    },
  };
}

test('wakes during a pass bring exactly one more pass, and the loop then rests', async () => {
  const gate = gatedSteps();
  const loop = new WakeLoop(gate.steps);
  const done = loop.runNow();
  loop.wake();
  loop.wake();
  expect(loop.wakePending).toBe(true);
  await gate.finishPass();
  await gate.finishPass();
  await done;
  expect(gate.passes()).toBe(2);
});

test('a wake taken while looking ahead runs again at once', async () => {
  let runs = 0;
  const loop: WakeLoop = new WakeLoop({
    pass: async () => {
      runs++;
    },
    idle: async (): Promise<number | null> => {
      if (runs === 1) loop.wake();
      return loop.takeWake() ? 0 : null;
    },
  });
  await loop.runNow();
  // The second run comes from a 0 ms timer; its own look ahead finds no wake, so none follows it.
  await waitUntil(() => runs === 2);
  // Waits for the second run to end.
  await loop.stop();
  expect(runs).toBe(2);
});

test('a failing pass is logged and does not stop later runs', async () => {
  let runs = 0;
  const loop = new WakeLoop({
    pass: async () => {
      runs++;
      if (runs === 1) throw new Error('boom');
    },
    idle: async () => null,
  });
  await loop.runNow();
  await loop.runNow();
  expect(runs).toBe(2);
});

test('stop waits for the pass under way; nothing runs after it', async () => {
  const gate = gatedSteps(0);
  const loop = new WakeLoop(gate.steps);
  loop.wake();
  const stopped = loop.stop();
  loop.wake();
  await gate.finishPass();
  await stopped;
  // Not a wait for time: timers run in order of expiry, so a 0 ms timer the loop set (its idle
  // answer here) would have fired before this one.
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect(gate.passes()).toBe(1);
  expect(loop.isStopped).toBe(true);
});
