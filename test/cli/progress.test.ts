import { progressBar } from '../../src/operator/progress';

test('a progress bar is drawn in place on a terminal and not at all elsewhere', () => {
  let tty = '';
  const bar = progressBar({ write: (text: string) => (tty += text), isTTY: true });
  bar.progress(0, 'dumping the database');
  bar.progress(0.5, 'writing the archive');
  bar.progress(2, 'done');
  bar.done();
  const frames = tty.split('\r').filter(Boolean);
  expect(frames).toHaveLength(3);
  expect(frames[0]).toMatch(/^\[\.{30}\] {3}0% dumping the database/);
  expect(frames[1]).toMatch(/^\[#{15}\.{15}\] {2}50% writing the archive/);
  expect(frames[2]).toMatch(/^\[#{30}\] 100% done\s*\n$/);

  let piped = '';
  const quiet = progressBar({ write: (text: string) => (piped += text) });
  quiet.progress(0.5, 'writing the archive');
  quiet.done();
  expect(piped).toBe('');
});
