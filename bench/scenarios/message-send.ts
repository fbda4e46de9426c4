import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import knexFactory, { Knex } from 'knex';
import sodium from 'libsodium-wrappers';
import { runPrepared } from '../../src/db/prepared';
import { api, authOf, channelWithSubscribers, type Account } from '../lib/api';
import type { Target } from '../lib/load';
import type { Scenario } from '../scenario';
import type { PreparedTask, WorkHost } from '../servers/child';

/**
 * POST /api/v1/messages to a channel of 10 and of 100 subscribers, from 8 connections each sending
 * as a different user. Baseline, in the same run and on the same database: the rows a send stores
 * (the message, one user_messages row per subscriber), inserted directly in SQL in one statement
 * per message, prepared on PostgreSQL (the least a send can write: one round trip, atomic without a
 * transaction, never planned twice) by 8
 * concurrent workers inside the server child (where an embedded PGlite lives), on the same tables
 * with the same indexes.
 */
const SENDERS = 8;
const SIZES = [10, 100];
const TOPIC = 'bench topic';
const CONTENT = 'Hello from the **benchmark**: a short message, as most are.';

interface InsertArgs {
  realmId: number;
  streamId: number;
  recipientId: number;
  senderIds: number[];
  subscriberIds: number[];
  topic: string;
  content: string;
  renderedContent: string;
  sendingClient: string;
  workers: number;
}

/** The baseline's unit of work: one message as raw SQL (a task run in the server child). */
export async function insertMessageRows(host: WorkHost, args: InsertArgs): Promise<PreparedTask> {
  // On PostgreSQL the workers get their own pool, one connection each, as Parley's pool would give
  // its concurrent requests; PGlite has one connection in the process, which they share.
  const own: Knex | null =
    host.database === 'postgres' ? knexFactory({ client: 'pg', connection: host.databaseUrl!, pool: { min: args.workers, max: args.workers } }) : null;
  const knex = own ?? host.knex!;
  return {
    async run(worker) {
      const sender = args.senderIds[worker % args.senderIds.length];
      const flags = args.subscriberIds.map((id) => (id === sender ? 1 : 0));
      // Prepared on PostgreSQL, as Parley's send statements are: planning is not part of the floor.
      await runPrepared(
        knex,
        'bench:store',
        knex.raw(
          `WITH m AS (
           INSERT INTO messages (realm_id, sender_id, recipient_id, stream_id, dm_key, topic, content, rendered_content, sending_client, date_sent, has_link, has_image, has_attachment)
           VALUES (?, ?, ?, ?, NULL, ?, ?, ?, ?, now(), false, false, false) RETURNING id
         )
         INSERT INTO user_messages (user_id, message_id, realm_id, flags) SELECT u, m.id, ?, f FROM m, unnest(?::int[], ?::int[]) AS t(u, f)`,
          [
            args.realmId,
            sender,
            args.recipientId,
            args.streamId,
            args.topic,
            args.content,
            args.renderedContent,
            args.sendingClient,
            args.realmId,
            args.subscriberIds,
            flags,
          ],
        ),
      );
    },
    close: async () => {
      await own?.destroy();
    },
  };
}

/** A stand-in for the push service on loopback: answers every request as the service does. */
async function pushServiceSink(): Promise<{ url: string; requests: () => number; close(): Promise<void> }> {
  let count = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      count++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ result: 'success', msg: '', delete_device_ids: [], deleted_devices: { android_devices: [], apple_devices: [] } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => count,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The environment that configures email (the outbox) and mobile notifications (to the sink). */
async function notificationEnv(sinkUrl: string): Promise<Record<string, string>> {
  return {
    PARLEY_PUSH_BOUNCER_URL: sinkUrl,
    PARLEY_PUSH_BOUNCER_ORG_ID: crypto.randomUUID(),
    PARLEY_PUSH_BOUNCER_ORG_KEY: crypto.randomBytes(24).toString('hex'),
  };
}

export const scenario: Scenario = {
  name: 'message-send',
  description: `POST /api/v1/messages to channels of ${SIZES.join(' and ')} subscribers, ${SENDERS} senders, against the same rows inserted in SQL`,
  options: {
    notifications:
      '"on": email and mobile notifications configured, every recipient away (no presence) with default settings; ' +
      '"all": also every recipient with channel email and push notifications on and a registered device, so each message is due to everyone',
  },
  async run(ctx) {
    const mode = ctx.options.notifications ?? 'off';
    if (!['off', 'on', 'all'].includes(mode)) throw new Error('--notifications must be off, on or all');
    const sink = mode === 'off' ? null : await pushServiceSink();
    const parley = await ctx.startParley(sink ? { env: await notificationEnv(sink.url) } : {});
    try {
      const users = await parley.call<Account[]>('createUsers', { count: Math.max(...SIZES), prefix: 'bench-send' });
      if (mode === 'all') {
        const ids = users.map((u) => u.id);
        await parley.call('sql', {
          sql: 'UPDATE user_settings SET enable_stream_email_notifications = true, enable_stream_push_notifications = true WHERE user_id = ANY(?::int[])',
          bindings: [ids],
        });
        await sodium.ready;
        const deviceKey = Buffer.from(sodium.crypto_box_keypair().publicKey).toString('base64');
        await parley.call('sql', {
          // Active devices, as the push service's answer to their registration leaves them.
          sql: `INSERT INTO push_devices (realm_id, user_id, push_account_id, token_kind, push_public_key, registered_at, bouncer_device_id)
                SELECT realm_id, id, id, 'fcm', ?, now(), id FROM users WHERE id = ANY(?::int[])`,
          bindings: [deviceKey, ids],
        });
      }
      const senders = users.slice(0, SENDERS);
      const targets: Target[] = [];
      const pairs: { size: number }[] = [];
      for (const size of SIZES) {
        const members = users.slice(0, size);
        const streamId = await channelWithSubscribers(
          parley,
          `bench ${size} subscribers`,
          members.map((u) => u.id),
        );
        const form = { type: 'stream', to: String(streamId), topic: TOPIC, content: CONTENT };
        const body = new URLSearchParams(form).toString();
        // One send through the API: checks the fixtures, and gives the rows the baseline copies.
        const sent = await api(`${parley.url}/api/v1/messages`, 'POST', authOf(senders[0]), form);
        const [row] = await parley.call<Record<string, any>[]>('sql', {
          sql: `SELECT realm_id, recipient_id, topic, content, rendered_content, sending_client,
                  (SELECT count(*) FROM user_messages um WHERE um.message_id = m.id)::int AS rows
                FROM messages m WHERE id = ?`,
          bindings: [sent.id],
        });
        if (row.rows !== size) throw new Error(`a message to ${size} subscribers stored ${row.rows} user_messages rows`);
        const args: InsertArgs = {
          realmId: row.realm_id,
          streamId,
          recipientId: row.recipient_id,
          senderIds: senders.map((u) => u.id),
          subscriberIds: members.map((u) => u.id),
          topic: row.topic,
          content: row.content,
          renderedContent: row.rendered_content,
          sendingClient: row.sending_client,
          workers: SENDERS,
        };
        targets.push(
          {
            label: `SQL inserts, ${size} subscribers`,
            work: { server: parley, workers: SENDERS, task: { module: __filename, name: 'insertMessageRows', args } },
          },
          {
            label: `Parley, ${size} subscribers`,
            options: {
              url: `${parley.url}/api/v1/messages`,
              method: 'POST',
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              body,
              connections: SENDERS,
              connectionHeaders: senders.map((u) => ({ authorization: authOf(u) })),
              server: parley,
            },
          },
        );
        pairs.push({ size });
      }
      const results = await ctx.measure(targets);
      const counts = await parley.call<{ messages: number; rows: number; jobs: number; decided: number }[]>('sql', {
        sql: `SELECT (SELECT count(*) FROM messages)::int AS messages, (SELECT count(*) FROM user_messages)::int AS rows,
                     (SELECT count(*) FROM notification_jobs)::int AS jobs, (SELECT coalesce(max(last_message_id), 0) FROM notification_cursors)::int AS decided`,
      });
      return {
        results,
        goals: pairs.map(({ size }, i) => ({
          label: `Parley / SQL baseline, ${size} subscribers`,
          value: results[2 * i + 1].rps / results[2 * i].rps,
          atLeast: 0.5,
        })),
        notes: [
          `${SENDERS} connections / ${SENDERS} SQL workers, each a different sender; one message = 1 messages row + 1 user_messages row per subscriber, in one statement`,
          `server CPU µs/req is the server process's (for PGlite it includes the database; for PostgreSQL the database's own processes are not counted)`,
          `tables at the end: ${counts[0].messages.toLocaleString('en-US')} messages, ${counts[0].rows.toLocaleString('en-US')} user_messages rows`,
          `notifications ${mode}` +
            (sink
              ? `: decided up to message ${counts[0].decided.toLocaleString('en-US')}, ${counts[0].jobs.toLocaleString('en-US')} jobs waiting, ${sink.requests().toLocaleString('en-US')} push service requests`
              : ''),
        ],
      };
    } finally {
      await parley.stop();
      await sink?.close();
    }
  },
};
