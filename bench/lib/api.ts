import http from 'node:http';
import { basicAuth } from './servers';

/** Fixtures through the REST API: one request, form-encoded, that must succeed. */
export interface Account {
  id: number;
  email: string;
  apiKey: string;
}

export const authOf = (account: Pick<Account, 'email' | 'apiKey'>) => basicAuth(account.email, account.apiKey);

/** An agent for clients holding many requests open at once (long-polls). */
export function manySocketsAgent(): http.Agent {
  return new http.Agent({ keepAlive: true, maxSockets: Infinity });
}

/**
 * One request with node:http (no client-side pooling limits beyond the agent's); resolves with the
 * parsed JSON body and rejects on a transport error or a body that is not a success.
 */
export function api(url: string, method: string, auth: string, form?: Record<string, string>, agent?: http.Agent): Promise<Record<string, any>> {
  const body = form ? new URLSearchParams(form).toString() : undefined;
  const headers: Record<string, string | number> = { authorization: auth };
  if (body !== undefined) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    headers['content-length'] = Buffer.byteLength(body);
  }
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: Record<string, any>;
        try {
          parsed = JSON.parse(text);
        } catch {
          return reject(new Error(`${method} ${url} answered ${res.statusCode} with ${text.slice(0, 200)}`));
        }
        if (res.statusCode !== 200 || parsed.result !== 'success') {
          return reject(new Error(`${method} ${url} answered ${res.statusCode}: ${text.slice(0, 300)}`));
        }
        resolve(parsed);
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Runs `work` over `items`, `size` at a time. */
export async function inBatches<T>(items: T[], size: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map((item, j) => work(item, i + j)));
}

/** Polls `check` until it holds. */
export async function until(check: () => Promise<boolean>, what: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A channel created by `ownerAuth` with exactly these subscribers; returns its id. */
export async function channelWithSubscribers(
  parley: { url: string; ownerAuth: string; call<T>(name: string, args?: unknown): Promise<T> },
  name: string,
  userIds: number[],
): Promise<number> {
  await api(`${parley.url}/api/v1/users/me/subscriptions`, 'POST', parley.ownerAuth, {
    subscriptions: JSON.stringify([{ name }]),
    principals: JSON.stringify(userIds),
  });
  const [row] = await parley.call<{ id: number; subscribers: number }[]>('sql', {
    sql: 'SELECT s.id, (SELECT count(*) FROM subscriptions x WHERE x.stream_id = s.id AND x.active)::int AS subscribers FROM streams s WHERE s.name = ?',
    bindings: [name],
  });
  if (!row || row.subscribers !== userIds.length) throw new Error(`channel ${name} has ${row?.subscribers} subscribers, expected ${userIds.length}`);
  return row.id;
}

/** What zulip-flutter sends (lib/api/route/events.dart), with the capabilities of its current releases. */
export const MOBILE_REGISTER = {
  apply_markdown: 'true',
  slim_presence: 'true',
  client_capabilities: JSON.stringify({
    notification_settings_null: true,
    bulk_message_deletion: true,
    user_avatar_url_field_optional: true,
    stream_typing_notifications: true,
    user_settings_object: true,
    empty_topic_name: true,
    simplified_presence_events: true,
    archived_channels: true,
    include_deactivated_groups: true,
  }),
};
