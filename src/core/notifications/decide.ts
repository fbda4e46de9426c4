import type { Knex } from 'knex';
import { listParam } from '../../db/lists';
import { FLAG_BITS } from '../messages/flags';
import { VisibilityPolicy } from '../user-topics/store';
import { OFFLINE_THRESHOLD_SECS } from '../presence/constants';
import { WELCOME_BOT_EMAIL } from '../system-bots/notification-bot';
import { decide, RECIPIENT_SETTING_NAMES, RecipientSettings, SubscriptionOverrides } from './rules';

/**
 * The decision step: reads messages past the realm's cursor (and edits that added mentions), decides
 * for every recipient which notifications are due (rules.ts) and records them as notification_jobs,
 * moving the cursor in the same transaction. The cursor row is claimed with SKIP LOCKED, so with
 * several processes one decides each message once; a crash rolls the whole step back.
 *
 * Ids are taken before commit, so a slow send can commit after a later one has been decided: ids
 * the cursor passes without finding are kept as gaps and looked for again on every pass until
 * GAP_TTL_MS (ids of rolled-back or deleted messages simply expire).
 */

/** Messages younger than this wait for the next pass, so that most sends in flight are not gaps. */
export const SETTLE_MS = 200;
const GAP_TTL_MS = 120_000;
const MAX_GAPS = 10_000;
/** Messages (and edits) per pass: large enough that a busy realm needs few passes, each a transaction. */
const BATCH = 500;

/** Flags that can make a recipient due a notification on their own; the same bits as the user_messages_personal index. */
const PERSONAL_FLAGS =
  FLAG_BITS.mentioned |
  FLAG_BITS.stream_wildcard_mentioned |
  FLAG_BITS.topic_wildcard_mentioned |
  FLAG_BITS.group_mentioned |
  FLAG_BITS.has_alert_word |
  FLAG_BITS.is_private;

interface MessageRow {
  id: number;
  sender_id: number;
  stream_id: number | null;
  topic: string;
  date_sent: Date;
}

interface Candidate {
  message: MessageRow;
  userId: number;
  flags: number;
}

export interface NewJob {
  userId: number;
  kind: 'email' | 'push';
  messageId: number;
  trigger: string;
  dueAt: Date;
}

/**
 * One pass; returns whether it took a full batch, so that more may be waiting (false also when
 * another process holds the cursor).
 */
export async function decidePending(knex: Knex, realmId: number, pushConfigured: boolean, now = new Date()): Promise<boolean> {
  return knex.transaction(async (trx) => {
    const cursor = (await trx.raw('SELECT last_message_id, gaps FROM notification_cursors WHERE realm_id = ? FOR UPDATE SKIP LOCKED', [realmId])).rows[0] as
      | { last_message_id: number; gaps: [number, number][] | string }
      | undefined;
    if (!cursor) return false;
    const gaps = new Map<number, number>(typeof cursor.gaps === 'string' ? JSON.parse(cursor.gaps) : cursor.gaps);
    const settled = new Date(now.getTime() - SETTLE_MS);
    const fresh = (
      await trx.raw(
        `SELECT id, sender_id, stream_id, topic, date_sent FROM messages
          WHERE realm_id = ? AND id > ? AND date_sent <= ? ORDER BY id LIMIT ?`,
        [realmId, cursor.last_message_id, settled, BATCH],
      )
    ).rows as MessageRow[];
    const late =
      gaps.size === 0
        ? []
        : ((
            await trx.raw('SELECT id, sender_id, stream_id, topic, date_sent FROM messages WHERE realm_id = ? AND id = ANY(?::int[])', [
              realmId,
              listParam([...gaps.keys()]),
            ])
          ).rows as MessageRow[]);
    const messages = [...late, ...fresh];
    const gapsBefore = JSON.stringify([...gaps]);
    for (const m of late) gaps.delete(m.id);
    const last = fresh.length > 0 ? fresh[fresh.length - 1].id : cursor.last_message_id;
    const seen = new Set(fresh.map((m) => m.id));
    for (let id = cursor.last_message_id + 1; id < last && gaps.size < MAX_GAPS; id++) if (!seen.has(id)) gaps.set(id, now.getTime());
    for (const [id, since] of gaps) if (now.getTime() - since > GAP_TTL_MS) gaps.delete(id);
    const gapsAfter = JSON.stringify([...gaps]);
    const edits = (
      await trx.raw('SELECT id, message_id, user_ids FROM notification_edits WHERE realm_id = ? ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED', [realmId, BATCH])
    ).rows as { id: number; message_id: number; user_ids: number[] }[];
    if (messages.length === 0 && edits.length === 0) {
      if (gapsAfter !== gapsBefore) await trx.raw('UPDATE notification_cursors SET gaps = ?::jsonb WHERE realm_id = ?', [gapsAfter, realmId]);
      return false;
    }

    const candidates: Candidate[] = [];
    if (messages.length > 0) {
      const byId = new Map(messages.map((m) => [m.id, m]));
      for (const row of await candidateRows(trx, messages)) candidates.push({ message: byId.get(row.message_id)!, userId: row.user_id, flags: row.flags });
    }
    const editCandidates: Candidate[] = [];
    if (edits.length > 0) {
      const edited = (
        await trx.raw('SELECT id, sender_id, stream_id, topic, date_sent FROM messages WHERE id = ANY(?::int[])', [listParam(edits.map((e) => e.message_id))])
      ).rows as MessageRow[];
      const byId = new Map(edited.map((m) => [m.id, m]));
      const pairs = edits.flatMap((e) => (byId.has(e.message_id) ? e.user_ids.map((u) => [u, e.message_id]) : []));
      if (pairs.length > 0) {
        const rows = (
          await trx.raw(
            `SELECT um.user_id, um.message_id, um.flags FROM user_messages um
               JOIN unnest(?::int[], ?::int[]) AS p(user_id, message_id) ON um.user_id = p.user_id AND um.message_id = p.message_id
              WHERE (um.flags & 1) = 0`,
            [listParam(pairs.map((p) => p[0])), listParam(pairs.map((p) => p[1]))],
          )
        ).rows as { user_id: number; message_id: number; flags: number }[];
        for (const row of rows) editCandidates.push({ message: byId.get(row.message_id)!, userId: row.user_id, flags: row.flags });
      }
    }

    const jobs = await decideFor(trx, [...candidates, ...editCandidates], new Set(editCandidates), pushConfigured, now);
    await insertJobs(trx, realmId, jobs);
    if (last !== cursor.last_message_id || gapsAfter !== gapsBefore) {
      await trx.raw('UPDATE notification_cursors SET last_message_id = ?, gaps = ?::jsonb WHERE realm_id = ?', [last, gapsAfter, realmId]);
    }
    if (edits.length > 0) await trx.raw('DELETE FROM notification_edits WHERE id = ANY(?::int[])', [listParam(edits.map((e) => e.id))]);
    return fresh.length === BATCH || edits.length === BATCH;
  });
}

/**
 * The unread rows of the batch's recipients who might be due a notification: those with a personal
 * flag (read through their own small index, so the rows of everyone else, usually nearly all of a
 * channel's, are never read), and those of the channel listeners.
 */
async function candidateRows(trx: Knex, messages: MessageRow[]): Promise<{ user_id: number; message_id: number; flags: number }[]> {
  const ids = listParam(messages.map((m) => m.id));
  // The predicate is the partial index's, written the same way so the planner matches it.
  const personal = (
    await trx.raw(`SELECT user_id, message_id, flags FROM user_messages WHERE message_id = ANY(?::int[]) AND (flags & ${PERSONAL_FLAGS}) <> 0`, [ids])
  ).rows as { user_id: number; message_id: number; flags: number }[];
  const rows = personal.filter((r) => (r.flags & FLAG_BITS.read) === 0);
  const listeners = await channelListeners(trx, messages);
  if (listeners.length > 0) {
    const seen = new Set(personal.map((r) => `${r.user_id}:${r.message_id}`));
    const more = (
      await trx.raw('SELECT user_id, message_id, flags FROM user_messages WHERE user_id = ANY(?::int[]) AND message_id = ANY(?::int[]) AND (flags & 1) = 0', [
        listParam(listeners),
        ids,
      ])
    ).rows as { user_id: number; message_id: number; flags: number }[];
    for (const row of more) if (!seen.has(`${row.user_id}:${row.message_id}`)) rows.push(row);
  }
  return rows;
}

/**
 * Recipients who might be due anything for a channel message without a personal flag: those with
 * channel notifications on in one of the batch's channels, or following one of its topics. Read
 * once per pass (a plain message to a big channel then reads only its few rows that matter); the
 * rules decide exactly.
 */
async function channelListeners(trx: Knex, messages: MessageRow[]): Promise<number[]> {
  const streamIds = [...new Set(messages.flatMap((m) => (m.stream_id === null ? [] : [m.stream_id])))];
  if (streamIds.length === 0) return [];
  const rows = (
    await trx.raw(
      `SELECT s.user_id FROM subscriptions s JOIN user_settings us ON us.user_id = s.user_id
        WHERE s.stream_id = ANY(?::int[]) AND s.active
          AND (COALESCE(s.email_notifications, us.enable_stream_email_notifications) OR COALESCE(s.push_notifications, us.enable_stream_push_notifications))
       UNION
       SELECT ut.user_id FROM user_topics ut
        WHERE ut.stream_id = ANY(?::int[]) AND ut.visibility_policy = ${VisibilityPolicy.FOLLOWED} AND lower(ut.topic_name) = ANY(?::text[])`,
      [listParam(streamIds), listParam(streamIds), listParam([...new Set(messages.map((m) => m.topic.toLowerCase()))], 'text')],
    )
  ).rows as { user_id: number }[];
  return rows.map((r) => r.user_id);
}

async function decideFor(trx: Knex, candidates: Candidate[], fromEdits: Set<Candidate>, pushConfigured: boolean, now: Date): Promise<NewJob[]> {
  // Everyone but the sender: the sender's own copy is never notified about.
  const others = candidates.filter((c) => c.userId !== c.message.sender_id);
  if (others.length === 0) return [];
  // As in Zulip, the Welcome Bot's messages are meant to be read in the app: no email, no push.
  const quiet = await welcomeBotIds(trx, [...new Set(others.map((c) => c.message.sender_id))]);
  const relevant = others.filter((c) => !quiet.has(c.message.sender_id));
  if (relevant.length === 0) return [];
  const userIds = [...new Set(relevant.map((c) => c.userId))];
  const senderIds = [...new Set(relevant.map((c) => c.message.sender_id))];
  const streamIds = [...new Set(relevant.flatMap((c) => (c.message.stream_id === null ? [] : [c.message.stream_id])))];

  const settingColumns = RECIPIENT_SETTING_NAMES.map((n) => `s.${n}`).join(', ');
  const users = (
    await trx.raw(
      `SELECT u.id, s.email_notifications_batching_period_seconds AS batching, ${settingColumns}, p.last_connected_time,
              (EXISTS (SELECT 1 FROM client_devices d WHERE d.user_id = u.id AND (d.push_token_id IS NOT NULL OR d.pending_push_token_id IS NOT NULL)) OR EXISTS (SELECT 1 FROM push_device_tokens t WHERE t.user_id = u.id)) AS has_device
         FROM users u JOIN user_settings s ON s.user_id = u.id LEFT JOIN user_presence p ON p.user_id = u.id
        WHERE u.id = ANY(?::int[]) AND u.is_active AND NOT u.is_bot`,
      [listParam(userIds)],
    )
  ).rows as (RecipientSettings & { id: number; batching: number; last_connected_time: Date | null; has_device: boolean })[];
  const usersById = new Map(users.map((u) => [u.id, u]));

  const subs = new Map<string, SubscriptionOverrides>();
  const topics = new Map<string, number>();
  if (streamIds.length > 0) {
    const subRows = (
      await trx.raw(
        `SELECT user_id, stream_id, is_muted, email_notifications, push_notifications, wildcard_mentions_notify FROM subscriptions
          WHERE stream_id = ANY(?::int[]) AND user_id = ANY(?::int[]) AND active`,
        [listParam(streamIds), listParam(userIds)],
      )
    ).rows as (SubscriptionOverrides & { user_id: number; stream_id: number })[];
    for (const row of subRows) subs.set(`${row.user_id}:${row.stream_id}`, row);
    const topicRows = (
      await trx.raw(
        `SELECT user_id, stream_id, lower(topic_name) AS topic, visibility_policy FROM user_topics
          WHERE stream_id = ANY(?::int[]) AND user_id = ANY(?::int[])`,
        [listParam(streamIds), listParam(userIds)],
      )
    ).rows as { user_id: number; stream_id: number; topic: string; visibility_policy: number }[];
    for (const row of topicRows) topics.set(`${row.user_id}:${row.stream_id}:${row.topic}`, row.visibility_policy);
  }
  const muted = new Set(
    (
      (
        await trx.raw('SELECT user_id, muted_user_id FROM muted_users WHERE muted_user_id = ANY(?::int[]) AND user_id = ANY(?::int[])', [
          listParam(senderIds),
          listParam(userIds),
        ])
      ).rows as { user_id: number; muted_user_id: number }[]
    ).map((r) => `${r.user_id}:${r.muted_user_id}`),
  );

  const onlineSince = now.getTime() - OFFLINE_THRESHOLD_SECS * 1000;
  const jobs: NewJob[] = [];
  for (const c of relevant) {
    const user = usersById.get(c.userId);
    if (!user) continue;
    const m = c.message;
    const decision = decide({
      userId: c.userId,
      senderId: m.sender_id,
      flags: c.flags,
      settings: user,
      subscription: m.stream_id === null ? null : (subs.get(`${c.userId}:${m.stream_id}`) ?? null),
      topicPolicy: m.stream_id === null ? 0 : (topics.get(`${c.userId}:${m.stream_id}:${m.topic.toLowerCase()}`) ?? 0),
      senderMuted: muted.has(`${c.userId}:${m.sender_id}`),
      away: !user.last_connected_time || new Date(user.last_connected_time).getTime() < onlineSince,
    });
    // An edit's batch starts now; a new message's when it was sent.
    const start = fromEdits.has(c) ? now.getTime() : new Date(m.date_sent).getTime();
    if (decision.email) {
      jobs.push({ userId: c.userId, kind: 'email', messageId: m.id, trigger: decision.email, dueAt: new Date(start + user.batching * 1000) });
    }
    // Without a registered device there is nobody to notify (the app registers again when installed).
    if (decision.push && pushConfigured && user.has_device) jobs.push({ userId: c.userId, kind: 'push', messageId: m.id, trigger: decision.push, dueAt: now });
  }
  return jobs;
}

/** Records the jobs; one already recorded for the same user, message and kind is kept as it is. */
async function insertJobs(trx: Knex, realmId: number, jobs: NewJob[]): Promise<void> {
  if (jobs.length === 0) return;
  await trx.raw(
    `INSERT INTO notification_jobs (realm_id, user_id, kind, message_id, trigger, due_at)
     SELECT ?, j.user_id, j.kind, j.message_id, j.trigger, j.due_at
       FROM unnest(?::int[], ?::text[], ?::int[], ?::text[], ?::timestamptz[]) AS j(user_id, kind, message_id, trigger, due_at)
     ON CONFLICT (user_id, message_id, kind) WHERE message_id IS NOT NULL DO NOTHING`,
    [
      realmId,
      listParam(jobs.map((j) => j.userId)),
      jobs.map((j) => j.kind) as unknown as Knex.RawBinding,
      listParam(jobs.map((j) => j.messageId)),
      jobs.map((j) => j.trigger) as unknown as Knex.RawBinding,
      jobs.map((j) => j.dueAt.toISOString()) as unknown as Knex.RawBinding,
    ],
  );
}

async function welcomeBotIds(trx: Knex, senderIds: number[]): Promise<Set<number>> {
  const rows = (
    await trx.raw('SELECT id FROM users WHERE id = ANY(?::int[]) AND is_system_bot AND lower(delivery_email) = ?', [listParam(senderIds), WELCOME_BOT_EMAIL])
  ).rows as { id: number }[];
  return new Set(rows.map((r) => r.id));
}
