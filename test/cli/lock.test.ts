import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseInUseError, lockDatabaseDir } from '../../src/db/lock';

let dir: string;
beforeEach(() => {
  dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'parley-lock-')), 'pgdata');
});
afterEach(() => {
  fs.rmSync(path.dirname(dir), { recursive: true, force: true });
});

test('a held lock refuses a second holder until released', () => {
  const release = lockDatabaseDir(dir);
  expect(fs.readFileSync(`${dir}.lock`, 'utf8')).toBe(`${process.pid}\n`);
  expect(() => lockDatabaseDir(dir)).toThrow(DatabaseInUseError);
  expect(() => lockDatabaseDir(dir)).toThrow(`is in use by process ${process.pid}`);
  release();
  expect(fs.existsSync(`${dir}.lock`)).toBe(false);
  lockDatabaseDir(dir)();
});

test('a lock left by a process that has exited is taken over', () => {
  const exited = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  fs.writeFileSync(`${dir}.lock`, `${exited.stdout.toString()}\n`);
  const release = lockDatabaseDir(dir);
  expect(fs.readFileSync(`${dir}.lock`, 'utf8')).toBe(`${process.pid}\n`);
  release();
});

test('a lock naming this process that this process does not hold is stale (a reused pid)', () => {
  fs.writeFileSync(`${dir}.lock`, `${process.pid}\n`);
  lockDatabaseDir(dir)();
});

test('a lock held by another running process is respected', () => {
  // The parent of the test runner is alive for as long as the test runs.
  fs.writeFileSync(`${dir}.lock`, `${process.ppid}\n`);
  expect(() => lockDatabaseDir(dir)).toThrow(`is in use by process ${process.ppid}`);
});
