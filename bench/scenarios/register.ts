import knexFactory, { Knex } from 'knex';
import { columnsOf, copyMembers } from '../lib/seed';
import { api, authOf, channelWithSubscribers, MOBILE_REGISTER, type Account } from '../lib/api';
import { numberOption, type Scenario } from '../scenario';
import type { PreparedTask, WorkHost } from '../servers/child';

/**
 * POST /api/v1/register in a large organization, as the Zulip mobile app sends it (every event
 * type, its client capabilities), and the same with include_subscribers; one client at a time, so
 * the figures are latencies. Baseline, in the same run on the same database: the SQL queries that
 * read the same state (accounts, profile data, channels, the user's subscriptions, subscriber lists,
 * groups and members, unread messages, presence, settings), run directly in the server child.
 *
 * The organization is seeded with SQL: USERS accounts (every one in its role's system group), a
 * custom profile field of each of 3 kinds filled in for everyone, CHANNELS channels (the registering
 * user in SUBSCRIBED of them; the first BIG channels have 1,000 to 5,000 subscribers, the others
 * 20 to 200), GROUPS user groups of 5 to 500 members, and `--messages` messages spread over the
 * user's channels, of which the user received every one (one user_messages row each; rows of the
 * other recipients are left out, as register never reads them) and has UNREAD unread.
 */
const USERS = 10_000;
const CHANNELS = 500;
const SUBSCRIBED = 50;
const BIG = 10;
const GROUPS = 50;
const UNREAD = 2_000;
const BATCH = 100_000;

interface BaselineArgs {
  userId: number;
  realmId: number;
  withSubscribers: boolean;
}

/** The baseline's unit of work: the queries that read what register returns (a task run in the server child). */
export async function readRegisterState(host: WorkHost, args: BaselineArgs): Promise<PreparedTask> {
  const own: Knex | null = host.database === 'postgres' ? knexFactory({ client: 'pg', connection: host.databaseUrl!, pool: { min: 1, max: 1 } }) : null;
  const knex = own ?? host.knex!;
  const { userId, realmId } = args;
  const statements: [string, unknown[]][] = [
    ['SELECT * FROM realms WHERE id = ?', [realmId]],
    ['SELECT * FROM user_settings WHERE user_id = ?', [userId]],
    ['SELECT * FROM users WHERE realm_id = ? ORDER BY id', [realmId]],
    ['SELECT user_id, field_id, value, rendered_value FROM custom_profile_field_values WHERE realm_id = ?', [realmId]],
    ['SELECT * FROM custom_profile_fields WHERE realm_id = ?', [realmId]],
    ['SELECT * FROM streams WHERE realm_id = ?', [realmId]],
    ['SELECT * FROM subscriptions WHERE user_id = ?', [userId]],
    [
      `SELECT s.stream_id, count(*) FROM subscriptions s JOIN users u ON u.id = s.user_id
        WHERE s.active AND u.is_active AND u.realm_id = ? GROUP BY s.stream_id`,
      [realmId],
    ],
    ['SELECT * FROM user_groups WHERE realm_id = ?', [realmId]],
    ['SELECT m.group_id, m.user_id FROM user_group_members m JOIN users u ON u.id = m.user_id WHERE u.is_active AND u.realm_id = ?', [realmId]],
    ['SELECT * FROM user_group_subgroups', []],
    [
      `SELECT um.message_id, m.stream_id, m.topic FROM user_messages um JOIN messages m ON m.id = um.message_id
        WHERE um.user_id = ? AND (um.flags & 1) = 0 ORDER BY um.message_id DESC LIMIT 50000`,
      [userId],
    ],
    ['SELECT max(message_id) FROM user_messages WHERE user_id = ?', [userId]],
    ['SELECT * FROM user_presence WHERE realm_id = ?', [realmId]],
  ];
  if (args.withSubscribers) {
    statements.push([
      `SELECT s.stream_id, s.user_id FROM subscriptions s JOIN users u ON u.id = s.user_id
        WHERE s.active AND u.is_active AND u.realm_id = ? ORDER BY s.stream_id, s.user_id`,
      [realmId],
    ]);
  }
  return {
    async run() {
      for (const [sql, bindings] of statements) await knex.raw(sql, bindings as never);
    },
    close: async () => {
      await own?.destroy();
    },
  };
}

export const scenario: Scenario = {
  name: 'register',
  description: `POST /api/v1/register as the mobile app sends it, in an organization of ${USERS.toLocaleString('en-US')} users and ${CHANNELS} channels, against the SQL reading the same state`,
  options: {
    messages: 'messages in the database (default 1,000,000; --messages=100000 seeds in seconds)',
  },
  async run(ctx) {
    const total = numberOption(ctx, 'messages', 1_000_000);
    const parley = await ctx.startParley();
    try {
      const sql = <T = Record<string, any>>(text: string, bindings: unknown[] = []) => parley.call<T[]>('sql', { sql: text, bindings });
      const started = Date.now();
      const [user, sender] = await parley.call<Account[]>('createUsers', { count: 2, prefix: 'bench-register' });
      const [{ realm_id: realmId }] = await sql<{ realm_id: number }>('SELECT realm_id FROM users WHERE id = ?', [user.id]);
      await copyMembers(sql, sender.id, USERS - 2, 'bench-user');
      const ids = (await sql<{ id: number }>('SELECT id FROM users WHERE realm_id = ? ORDER BY id', [realmId])).map((r) => r.id);
      ctx.log(`${ids.length.toLocaleString('en-US')} accounts (${Math.round((Date.now() - started) / 1000)} s)`);

      // Custom profile fields, filled in for everyone.
      const fields: number[] = [];
      for (const [name, type] of [
        ['Phone', 1],
        ['About me', 2],
        ['Pronouns', 8],
      ] as const) {
        const created = await api(`${parley.url}/api/v1/realm/profile_fields`, 'POST', parley.ownerAuth, { name, field_type: String(type) });
        fields.push(created.id);
      }
      for (const field of fields) {
        await sql(
          `INSERT INTO custom_profile_field_values (realm_id, user_id, field_id, value, rendered_value)
           SELECT ?, id, ?, 'value ' || id, CASE WHEN ? = 2 THEN '<p>value ' || id || '</p>' END FROM users WHERE realm_id = ?`,
          [realmId, field, field === fields[1] ? 2 : 1, realmId],
        );
      }

      // Channels: copies of one made through the API, with their subscriptions and recipients.
      const template = await channelWithSubscribers(parley, 'bench register 0', [user.id, sender.id]);
      const streamColumns = await columnsOf(sql, 'streams', ['id', 'name']);
      await sql(
        `INSERT INTO streams (${streamColumns.join(', ')}, name) SELECT ${streamColumns.join(', ')}, 'bench register ' || g FROM streams, generate_series(1, ?) g WHERE id = ?`,
        [CHANNELS - 1, template],
      );
      const streams = (await sql<{ id: number }>(`SELECT id FROM streams WHERE name LIKE 'bench register %' ORDER BY id`)).map((r) => r.id);
      await sql(`INSERT INTO message_recipients (realm_id, stream_id) SELECT realm_id, id FROM streams WHERE id = ANY(?::int[]) ON CONFLICT DO NOTHING`, [
        streams,
      ]);
      const subscriptionColumns = await columnsOf(sql, 'subscriptions', ['id', 'user_id', 'stream_id']);
      const [templateSub] = await sql<{ id: number }>('SELECT id FROM subscriptions WHERE stream_id = ? AND user_id = ?', [template, user.id]);
      // Channel c has subscribers ids[k] for k < size(c), shifted so that channels differ; the user is in the first SUBSCRIBED.
      const sizes = streams.map((_, c) => (c < BIG ? 1_000 + Math.floor((4_000 * c) / BIG) : 20 + ((c * 37) % 181)));
      for (let c = 0; c < streams.length; c += 50) {
        const chunk = streams.slice(c, c + 50);
        await sql(
          `INSERT INTO subscriptions (${subscriptionColumns.join(', ')}, user_id, stream_id)
           SELECT ${subscriptionColumns.map((col) => `t.${col}`).join(', ')}, u.id, s.id
           FROM (SELECT * FROM subscriptions WHERE id = ?) t
           CROSS JOIN unnest(?::int[], ?::int[], ?::int[]) AS s(id, size, shift)
           JOIN LATERAL (SELECT id FROM unnest(?::int[]) WITH ORDINALITY AS x(id, k) WHERE ((k + s.shift) % ?) < s.size) u ON true
           ON CONFLICT DO NOTHING`,
          [templateSub.id, chunk, chunk.map((_, i) => sizes[c + i]), chunk.map((_, i) => (c + i) * 97), ids.filter((id) => id !== user.id), ids.length - 1],
        );
      }
      const subscribedStreams = streams.slice(0, SUBSCRIBED);
      await sql(
        `INSERT INTO subscriptions (${subscriptionColumns.join(', ')}, user_id, stream_id)
         SELECT ${subscriptionColumns.map((col) => `t.${col}`).join(', ')}, ?, s.id FROM (SELECT * FROM subscriptions WHERE id = ?) t, unnest(?::int[]) AS s(id)
         ON CONFLICT DO NOTHING`,
        [user.id, templateSub.id, subscribedStreams],
      );
      ctx.log(`${streams.length} channels (${Math.round((Date.now() - started) / 1000)} s)`);

      // User groups of 5 to 500 members.
      for (let g = 0; g < GROUPS; g++) {
        const members = ids.slice((g * 113) % 9_000, ((g * 113) % 9_000) + 5 + ((g * 71) % 496)).map((id) => id);
        await api(`${parley.url}/api/v1/user_groups/create`, 'POST', parley.ownerAuth, {
          name: `bench group ${g}`,
          description: `Group ${g} of the benchmark`,
          members: JSON.stringify(members.slice(0, 1)),
        });
        await sql(
          `INSERT INTO user_group_members (group_id, user_id) SELECT (SELECT id FROM user_groups WHERE name = ?), u FROM unnest(?::int[]) AS u ON CONFLICT DO NOTHING`,
          [`bench group ${g}`, members],
        );
      }

      // Messages in the user's channels, all received by the user, the newest UNREAD unread.
      const recipients = await sql<{ id: number; stream_id: number }>(
        'SELECT id, stream_id FROM message_recipients WHERE stream_id = ANY(?::int[]) ORDER BY stream_id',
        [subscribedStreams],
      );
      const [{ start }] = await sql<{ start: number }>('SELECT coalesce(max(id), 0)::int AS start FROM messages');
      for (let from = 1; from <= total; from += BATCH) {
        const to = Math.min(total, from + BATCH - 1);
        await sql(
          `INSERT INTO messages (realm_id, sender_id, recipient_id, stream_id, topic, content, rendered_content, sending_client, date_sent)
           SELECT ?, ?, (?::int[])[1 + g % ?], (?::int[])[1 + g % ?], 'topic ' || (g % 97),
                  'Message ' || g, '<p>Message ' || g || '</p>', 'bench', now() - (? - g) * interval '1 second'
           FROM generate_series(?::int, ?::int) AS g`,
          [realmId, sender.id, recipients.map((r) => r.id), recipients.length, recipients.map((r) => r.stream_id), recipients.length, total, from, to],
        );
        ctx.log(`seeded ${to.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} messages (${Math.round((Date.now() - started) / 1000)} s)`);
      }
      await sql(
        `INSERT INTO user_messages (user_id, message_id, realm_id, flags)
         SELECT ?, id, realm_id, CASE WHEN id > (SELECT max(id) FROM messages) - ? THEN 0 ELSE 1 END FROM messages WHERE id > ?`,
        [user.id, UNREAD, start],
      );
      for (const table of ['messages', 'user_messages', 'subscriptions', 'users', 'user_group_members', 'custom_profile_field_values'])
        await sql(`VACUUM ANALYZE ${table}`);
      const seedSeconds = Math.round((Date.now() - started) / 1000);

      const url = `${parley.url}/api/v1/register`;
      const variants = [
        { name: 'mobile app', body: new URLSearchParams(MOBILE_REGISTER).toString(), withSubscribers: false },
        {
          name: 'mobile app + include_subscribers',
          body: new URLSearchParams({ ...MOBILE_REGISTER, include_subscribers: 'true' }).toString(),
          withSubscribers: true,
        },
      ];
      const notes = [
        `seeded in ${seedSeconds} s: ${ids.length.toLocaleString('en-US')} users, ${streams.length} channels, ${total.toLocaleString('en-US')} messages, ${UNREAD} unread`,
      ];
      const targets = [];
      for (const v of variants) {
        const probe = await fetch(url, {
          method: 'POST',
          headers: { authorization: authOf(user), 'content-type': 'application/x-www-form-urlencoded' },
          body: v.body,
        });
        const text = await probe.text();
        if (probe.status !== 200) throw new Error(`POST /register answered ${probe.status}: ${text.slice(0, 300)}`);
        const state = JSON.parse(text);
        notes.push(
          `${v.name}: ${(Buffer.byteLength(text) / 1024).toFixed(0)} KiB; ${state.realm_users.length} realm_users, ${state.subscriptions.length} subscriptions, ` +
            `${state.realm_user_groups.length} groups, ${state.unread_msgs.count} unread`,
        );
        const args: BaselineArgs = { userId: user.id, realmId, withSubscribers: v.withSubscribers };
        targets.push(
          { label: `SQL reads, ${v.name}`, work: { server: parley, workers: 1, task: { module: __filename, name: 'readRegisterState', args } } },
          {
            label: `Parley, ${v.name}`,
            options: {
              url,
              method: 'POST' as const,
              headers: { authorization: authOf(user), 'content-type': 'application/x-www-form-urlencoded' },
              body: v.body,
              connections: 1,
              server: parley,
            },
          },
        );
      }
      const results = await ctx.measure(targets);
      const goals = [];
      for (let i = 0; i < variants.length; i++) {
        const [baseline, measured] = [results[2 * i], results[2 * i + 1]];
        notes.push(
          `${variants[i].name}: p50 ${measured.p50Ms.toFixed(1)} ms vs ${baseline.p50Ms.toFixed(1)} ms (× ${(measured.p50Ms / baseline.p50Ms).toFixed(1)})`,
        );
        if (i === 0) {
          goals.push({ label: 'Parley p50 / SQL p50, mobile app', value: measured.p50Ms / baseline.p50Ms, atMost: 2 });
          if (ctx.database === 'postgres') goals.push({ label: 'Parley p50, mobile app', value: measured.p50Ms, atMost: 150, unit: 'ms' });
        }
      }
      return { results, goals, notes };
    } finally {
      await parley.stop();
    }
  },
};
