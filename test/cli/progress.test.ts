import { Writable } from 'node:stream';
import { progressBar, progressFor } from '../../src/operator/progress';

/** A stream that says it is a terminal and records what is drawn on it. */
function fakeTerminal() {
  let drawn = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      drawn += String(chunk);
      done();
    },
  }) as Writable & Record<string, unknown>;
  Object.assign(stream, { isTTY: true, columns: 100, cursorTo: () => true, clearLine: () => true, moveCursor: () => true, clearScreenDown: () => true });
  return { stream: stream as unknown as NodeJS.WriteStream, drawn: () => drawn };
}

/** A log file or a pipe: not a terminal. */
function pipe() {
  let written = '';
  return { stream: { isTTY: false, write: (text: string) => (written += text) } as never, written: () => written };
}

test('a bar with the step counts on a terminal', () => {
  const terminal = fakeTerminal();
  const progress = progressFor(terminal.stream);
  progress.start('Messages', 3);
  progress.advance(2);
  progress.advance();
  progress.stop();
  expect(terminal.drawn()).toContain('Messages');
  expect(terminal.drawn()).toContain('3/3');
});

test('a bar with the fraction done and the current step on a terminal', () => {
  const terminal = fakeTerminal();
  const bar = progressBar(terminal.stream);
  bar.progress(0, 'dumping the database');
  bar.progress(0.5, 'writing the archive');
  bar.progress(2, 'done');
  bar.done();
  expect(terminal.drawn()).toContain('0% dumping the database');
  // Past the end is the end; the last frame is drawn when the bar stops.
  expect(terminal.drawn()).toMatch(/100% done/);
  expect(terminal.drawn()).not.toContain('200%');
});

test('nothing when the output is not a terminal (a log file, a pipe)', () => {
  const steps = pipe();
  const progress = progressFor(steps.stream);
  progress.start('Messages', 3);
  progress.advance(3);
  progress.stop();
  expect(steps.written()).toBe('');

  const fraction = pipe();
  const bar = progressBar(fraction.stream);
  bar.progress(0.5, 'writing the archive');
  bar.done();
  expect(fraction.written()).toBe('');
});
