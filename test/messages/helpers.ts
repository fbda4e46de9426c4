import type { ZulipEvent } from '../../src/realtime/bus';
import { assertSuccess, client } from '../helpers/api';
import { TestServer, TestUser } from '../helpers/server';

export { captureEvents, createChannel, ids } from '../channels/helpers';

/** Subscribes users (by id) to a channel by name, creating it when needed, as `actor`. */
export async function subscribe(ts: TestServer, actor: TestUser, name: string, users: TestUser[], extra: Record<string, unknown> = {}): Promise<number> {
  assertSuccess(
    await client(ts, actor).post('/users/me/subscriptions', {
      subscriptions: [{ name }],
      principals: users.map((u) => u.id),
      ...extra,
    }),
  );
  return assertSuccess(await client(ts, actor).get('/get_stream_id', { stream: name })).stream_id;
}

export async function sendToChannel(
  ts: TestServer,
  who: TestUser,
  channel: number | string,
  topic: string,
  content: string,
  extra: Record<string, unknown> = {},
): Promise<number> {
  const res = await client(ts, who).post('/messages', { type: 'stream', to: typeof channel === 'number' ? channel : channel, topic, content, ...extra });
  return assertSuccess(res).id;
}

export async function sendDirect(ts: TestServer, who: TestUser, to: TestUser[], content: string): Promise<number> {
  return assertSuccess(await client(ts, who).post('/messages', { type: 'direct', to: to.map((u) => u.id), content })).id;
}

/** GET /messages with sensible defaults. */
export async function fetchMessages(ts: TestServer, who: TestUser, params: Record<string, unknown> = {}) {
  return assertSuccess(await client(ts, who).get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, ...params }));
}

export async function messageFlags(ts: TestServer, who: TestUser, messageId: number): Promise<string[]> {
  const res = assertSuccess(await client(ts, who).get(`/messages/${messageId}`));
  return res.message.flags;
}

export const ofType = (type: string, op?: string) => (e: ZulipEvent) => e.type === type && (op === undefined || e.op === op);
