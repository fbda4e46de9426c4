import fs from 'node:fs';
import path from 'node:path';
import { assertSuccess, client } from '../helpers/api';
import type { TestServer, TestUser } from '../helpers/server';

/** Posting a third party's document to /api/v1/external/<integration>, and reading what it became. */
export function fixture(integration: string, name: string): string {
  return fs.readFileSync(path.join(__dirname, 'fixtures', integration, `${name}.json`), 'utf8');
}

export async function postWebhook(
  ts: TestServer,
  integration: string,
  query: Record<string, string>,
  body: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, any> }> {
  const url = `${ts.url}/api/v1/external/${integration}?${new URLSearchParams(query)}`;
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

/** The newest message the reader can see in a narrow, as raw Markdown. */
export async function newestMessage(ts: TestServer, reader: TestUser, narrow: unknown[] = []): Promise<Record<string, any> | undefined> {
  const res = assertSuccess(await client(ts, reader).get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow, apply_markdown: false }));
  return res.messages[res.messages.length - 1];
}
