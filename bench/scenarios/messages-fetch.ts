import knexFactory, { Knex } from 'knex';
import { api, authOf, channelWithSubscribers, type Account } from '../lib/api';
import type { LoadResult } from '../lib/load';
import { numberOption, type Scenario } from '../scenario';
import type { PreparedTask, WorkHost } from '../servers/child';

/**
 * GET /api/v1/messages (the 50 newest messages of a narrow) on a large database: a channel + topic
 * narrow and `is:unread`, one client at a time, so the figures are latencies rather than queueing.
 * Baseline, in the same run on the same database: the one SQL query that returns the same 50
 * messages with the reader's flags, run directly in the server child by one worker.
 *
 * The database is seeded with SQL (generate_series), not through the API: 10 channels of skewed
 * traffic (the busiest has about a third of the messages), 2,000 topics per channel of skewed size
 * (the busiest topic of the busiest channel has about 8% of its channel), 20 senders, and a reader
 * subscribed to every channel who received every message: one user_messages row per message for
 * the reader and one for its sender. The reader has read everything but about half of the newest
 * 3% and 0.2% of the rest.
 */
const CHANNELS = 10;
const TOPICS_PER_CHANNEL = 2000;
const SENDERS = 20;
const PAGE = 50;
const BATCH = 100_000;
const HOT_TOPIC = 'topic 0';

const MESSAGE_COLUMNS =
  'm.id, m.realm_id, m.sender_id, m.recipient_id, m.stream_id, m.dm_key, m.topic, m.content, m.rendered_content, m.sending_client, m.date_sent, m.last_edit_time, m.has_link, m.has_image, m.has_attachment';

interface QueryArgs {
  sql: string;
  bindings: (string | number)[];
}

/** The baseline's unit of work: one SQL query (a task run in the server child). */
export async function runQuery(host: WorkHost, args: QueryArgs): Promise<PreparedTask> {
  const own: Knex | null = host.database === 'postgres' ? knexFactory({ client: 'pg', connection: host.databaseUrl!, pool: { min: 1, max: 1 } }) : null;
  const knex = own ?? host.knex!;
  return {
    async run() {
      const result = await knex.raw(args.sql, args.bindings);
      if (result.rows.length !== PAGE) throw new Error(`the query returned ${result.rows.length} rows`);
    },
    close: async () => {
      await own?.destroy();
    },
  };
}

export const scenario: Scenario = {
  name: 'messages-fetch',
  description: `GET /api/v1/messages (${PAGE} newest, channel + topic and is:unread) on a large database, against the same query in SQL`,
  options: {
    messages: 'messages in the database (default 1,000,000; seeding a million on PGlite takes minutes)',
    clients: 'concurrent clients, for Parley and the SQL baseline alike (default 1)',
  },
  async run(ctx) {
    const total = numberOption(ctx, 'messages', 1_000_000);
    const clients = numberOption(ctx, 'clients', 1);
    const parley = await ctx.startParley();
    try {
      const sql = <T = Record<string, any>>(text: string, bindings: unknown[] = []) => parley.call<T[]>('sql', { sql: text, bindings });
      const [reader, ...senders] = await parley.call<Account[]>('createUsers', { count: SENDERS + 1, prefix: 'bench-fetch' });
      const members = [reader, ...senders].map((u) => u.id);
      const channels: { streamId: number; recipientId: number }[] = [];
      for (let c = 0; c < CHANNELS; c++) {
        const streamId = await channelWithSubscribers(parley, `bench fetch ${c}`, members);
        // A first message through the API creates the channel's recipient row.
        await api(`${parley.url}/api/v1/messages`, 'POST', authOf(senders[c % SENDERS]), {
          type: 'stream',
          to: String(streamId),
          topic: HOT_TOPIC,
          content: 'first',
        });
        const [row] = await sql<{ id: number }>('SELECT id FROM message_recipients WHERE stream_id = ?', [streamId]);
        channels.push({ streamId, recipientId: row.id });
      }
      const [{ realm_id: realmId, start }] = await sql<{ realm_id: number; start: number }>(
        'SELECT realm_id, (SELECT coalesce(max(id), 0) FROM messages)::int AS start FROM users WHERE id = ?',
        [reader.id],
      );

      const seedStarted = Date.now();
      const unreadFrom = start + Math.floor(total * 0.97);
      for (let from = 1; from <= total; from += BATCH) {
        const to = Math.min(total, from + BATCH - 1);
        const [{ before }] = await sql<{ before: number }>('SELECT coalesce(max(id), 0)::int AS before FROM messages');
        await sql(
          `INSERT INTO messages (realm_id, sender_id, recipient_id, stream_id, topic, content, rendered_content, sending_client, date_sent)
           SELECT ?, (?::int[])[1 + s.g % ?], (?::int[])[1 + s.c], (?::int[])[1 + s.c], 'topic ' || s.t,
                  'Message ' || s.g || ' of the benchmark', '<p>Message ' || s.g || ' of the benchmark</p>', 'bench',
                  now() - (? - s.g) * interval '1 second'
           FROM (SELECT g, floor(? * power(random(), 2))::int AS c, floor(? * power(random(), 3))::int AS t
                 FROM generate_series(?::int, ?::int) AS g ORDER BY g) s`,
          [
            realmId,
            senders.map((u) => u.id),
            SENDERS,
            channels.map((c) => c.streamId),
            channels.map((c) => c.recipientId),
            total,
            CHANNELS,
            TOPICS_PER_CHANNEL,
            from,
            to,
          ],
        );
        await sql(
          `INSERT INTO user_messages (user_id, message_id, realm_id, flags)
           SELECT ?, id, realm_id, CASE WHEN random() < (CASE WHEN id > ? THEN 0.5 ELSE 0.002 END) THEN 0 ELSE 1 END FROM messages WHERE id > ?
           UNION ALL
           SELECT sender_id, id, realm_id, 1 FROM messages WHERE id > ?`,
          [reader.id, unreadFrom, before, before],
        );
        ctx.log(`seeded ${to.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} messages (${Math.round((Date.now() - seedStarted) / 1000)} s)`);
      }
      // As autovacuum would have by then: statistics and the visibility map for index-only scans.
      await sql('VACUUM ANALYZE messages');
      await sql('VACUUM ANALYZE user_messages');
      const seedSeconds = (Date.now() - seedStarted) / 1000;
      const [sizes] = await sql<{ messages: number; rows: number; unread: number; topic: number }>(
        `SELECT (SELECT count(*) FROM messages)::int AS messages, (SELECT count(*) FROM user_messages)::int AS rows,
           (SELECT count(*) FROM user_messages WHERE user_id = ? AND (flags & 1) = 0)::int AS unread,
           (SELECT count(*) FROM messages WHERE stream_id = ? AND lower(topic) = lower(?))::int AS topic`,
        [reader.id, channels[0].streamId, HOT_TOPIC],
      );

      const narrows = [
        {
          name: `channel + topic (${sizes.topic.toLocaleString('en-US')} messages)`,
          narrow: [
            { operator: 'channel', operand: channels[0].streamId },
            { operator: 'topic', operand: HOT_TOPIC },
          ],
          // The reader may read the channel's whole history: messages joined to the reader's flags, if any.
          query: {
            sql: `SELECT ${MESSAGE_COLUMNS}, um.flags FROM messages m LEFT JOIN user_messages um ON um.user_id = ? AND um.message_id = m.id
                  WHERE m.stream_id = ? AND lower(m.topic) = lower(?) ORDER BY m.id DESC LIMIT ${PAGE}`,
            bindings: [reader.id, channels[0].streamId, HOT_TOPIC],
          },
        },
        {
          name: `is:unread (${sizes.unread.toLocaleString('en-US')} unread)`,
          narrow: [{ operator: 'is', operand: 'unread' }],
          query: {
            sql: `SELECT ${MESSAGE_COLUMNS}, um.flags FROM user_messages um JOIN messages m ON m.id = um.message_id
                  WHERE um.user_id = ? AND (um.flags & 1) = 0 ORDER BY um.message_id DESC LIMIT ${PAGE}`,
            bindings: [reader.id],
          },
        },
      ];

      const targets = [];
      for (const n of narrows) {
        const url = `${parley.url}/api/v1/messages?${new URLSearchParams({ anchor: 'newest', num_before: String(PAGE), num_after: '0', narrow: JSON.stringify(n.narrow) })}`;
        // Parley and the query must agree before either is timed.
        const got = await api(url, 'GET', authOf(reader));
        const expected = await sql<{ id: number }>(n.query.sql, n.query.bindings);
        const ids = (got.messages as { id: number }[]).map((m) => m.id).join(',');
        const want = expected
          .map((r) => Number(r.id))
          .sort((a, b) => a - b)
          .join(',');
        if (ids !== want) throw new Error(`${n.name}: Parley returned other messages than the query`);
        targets.push(
          { label: `SQL query, ${n.name}`, work: { server: parley, workers: clients, task: { module: __filename, name: 'runQuery', args: n.query } } },
          { label: `Parley, ${n.name}`, options: { url, headers: { authorization: authOf(reader) }, connections: clients, server: parley } },
        );
      }
      const results: LoadResult[] = await ctx.measure(targets);
      const goals = [];
      const notes = [
        `${sizes.messages.toLocaleString('en-US')} messages, ${sizes.rows.toLocaleString('en-US')} user_messages rows (seeded in ${Math.round(seedSeconds)} s); ${clients} client(s) at a time`,
      ];
      for (let i = 0; i < narrows.length; i++) {
        const [baseline, measured] = [results[2 * i], results[2 * i + 1]];
        notes.push(
          `${narrows[i].name}: p50 ${measured.p50Ms.toFixed(1)} ms vs ${baseline.p50Ms.toFixed(1)} ms (× ${(measured.p50Ms / baseline.p50Ms).toFixed(1)}), ` +
            `p99 ${measured.p99Ms.toFixed(1)} ms vs ${baseline.p99Ms.toFixed(1)} ms (× ${(measured.p99Ms / baseline.p99Ms).toFixed(1)}), rate ratio ${(measured.rps / baseline.rps).toFixed(2)}`,
        );
        // The goal is set for PostgreSQL; on PGlite the figures are reported for comparison only.
        if (ctx.database === 'postgres') goals.push({ label: `Parley p99, ${narrows[i].name}`, value: measured.p99Ms, atMost: 20, unit: 'ms' });
      }
      if (ctx.database !== 'postgres') notes.push('the p99 goal (≤ 20 ms) applies to PostgreSQL; not checked on PGlite');
      return { results, goals, notes };
    } finally {
      await parley.stop();
    }
  },
};
