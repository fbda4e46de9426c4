import { Writable } from 'node:stream';
import { progressFor } from '../../src/operator/step-progress';

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

test('nothing when the output is not a terminal (a log file, a pipe)', () => {
  let written = '';
  const pipe = { isTTY: false, write: (text: string) => (written += text) };
  const progress = progressFor(pipe as never);
  progress.start('Messages', 3);
  progress.advance(3);
  progress.stop();
  expect(written).toBe('');
});
