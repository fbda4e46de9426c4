import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { listOutbox, OutboxEntry } from '../../src/core/email/outbox';
import type { TestServer } from '../helpers/server';

/** A data directory of its own per test server, so its outbox holds only that server's email. */
export function tempDataDir(): { dir: string; remove: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-accounts-'));
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

export function mailsTo(ts: TestServer, to: string): OutboxEntry[] {
  return listOutbox(ts.server.deps.config).filter((m) => m.to.toLowerCase() === to.toLowerCase());
}

/** The path of the last link to `pathPrefix` sent to `to`. */
export function lastLinkTo(ts: TestServer, to: string, pathPrefix: string): string {
  const mails = mailsTo(ts, to);
  const escaped = pathPrefix.replace(/[/]/g, '\\/');
  const match = new RegExp(`https?://[^\\s/]+(${escaped}[a-z0-9]{24}/)`).exec(mails[mails.length - 1]?.text ?? '');
  if (!match) throw new Error(`no link to ${pathPrefix} in the mail to ${to}`);
  return match[1];
}
