import type { AppDeps } from '../deps';
import type { Knex } from 'knex';
import type { OutgoingEmail } from '../email/outbox';
import { deliverNow } from '../deliveries/attempt';
import { insertDeliveries } from '../deliveries/store';
import { digestEmail } from '../email/templates';
import { encodeChannel, encodeHashComponent } from '../markdown/url';
import { cachedRealmSettings } from '../realm/setting-store';
import { unsubscribeUrl } from './unsubscribe-links';

/**
 * Digest emails, as Zulip's: when the organization has `digest_emails_enabled`, on its
 * `digest_weekday` (UTC; 0 is Monday, the default 1 Tuesday), every active user with
 * `enable_digest_emails` who has not been seen for DIGEST_INACTIVE_DAYS and has not had a digest in
 * the last six days receives one covering the past week: the busiest conversations in their
 * channels and the channels created meanwhile. A week with nothing to tell sends nothing. The worker
 * runs this hourly; `digest_sends` makes it once per user per week whichever process runs it. Each
 * digest is an outbox item written with the week's claim, and sent at once.
 */
export const DIGEST_INACTIVE_DAYS = 5;
const DEFAULT_DIGEST_WEEKDAY = 1;
const DAY_MS = 24 * 60 * 60 * 1000;
const HOT_CONVERSATIONS = 4;

/** Zulip's weekday numbering (Monday 0) of a moment, in UTC. */
export const zulipWeekday = (moment: Date) => (moment.getUTCDay() + 6) % 7;

export async function sendDigests(deps: AppDeps, now = new Date()): Promise<number> {
  const settings = await cachedRealmSettings(deps);
  if (settings.digest_emails_enabled !== true) return 0;
  if (zulipWeekday(now) !== (settings.digest_weekday ?? DEFAULT_DIGEST_WEEKDAY)) return 0;
  const inactiveSince = new Date(now.getTime() - DIGEST_INACTIVE_DAYS * DAY_MS);
  const recentDigest = new Date(now.getTime() - 6 * DAY_MS);
  const users = (
    await deps.knex.raw(
      `SELECT u.id, u.delivery_email FROM users u JOIN user_settings s ON s.user_id = u.id
         LEFT JOIN user_presence p ON p.user_id = u.id LEFT JOIN digest_sends d ON d.user_id = u.id
        WHERE u.realm_id = ? AND u.is_active AND NOT u.is_bot AND s.enable_digest_emails
          AND (p.last_connected_time IS NULL OR p.last_connected_time < ?)
          AND (d.sent_at IS NULL OR d.sent_at < ?)
        ORDER BY u.id LIMIT 500`,
      [deps.realmId, inactiveSince, recentDigest],
    )
  ).rows as { id: number; delivery_email: string }[];
  const realm = await deps.knex('realms').where({ id: deps.realmId }).first();
  const realmName = (realm?.name as string) ?? deps.config.realmName;
  const items: number[] = [];
  for (const user of users) {
    // The week's claim and the email commit together: another process running the job at the
    // same time skips this user, and a crash leaves either both or neither.
    const queued = await deps.knex.transaction(async (trx) => {
      const claimed = (
        await trx.raw(
          `INSERT INTO digest_sends (user_id, realm_id, sent_at) VALUES (?, ?, ?)
           ON CONFLICT (user_id) DO UPDATE SET sent_at = EXCLUDED.sent_at WHERE digest_sends.sent_at < ? RETURNING user_id`,
          [user.id, deps.realmId, now, recentDigest],
        )
      ).rows;
      if (claimed.length === 0) return [];
      const email = await digestFor(deps, trx, user, now, realmName);
      return email ? insertDeliveries(trx, deps.realmId, [{ kind: 'email', payload: { ...email } }]) : [];
    });
    items.push(...queued);
  }
  await deliverNow(deps, items);
  return items.length;
}

/** The user's digest of the past week, or null when the week has nothing to tell. */
async function digestFor(deps: AppDeps, db: Knex, user: { id: number; delivery_email: string }, now: Date, realmName: string): Promise<OutgoingEmail | null> {
  const weekAgo = new Date(now.getTime() - 7 * DAY_MS);
  const base = deps.config.externalUrl;
  const hot = (
    await db.raw(
      `SELECT m.stream_id, s.name, m.topic, count(*)::int AS n, array_agg(DISTINCT u.full_name) AS senders
         FROM messages m JOIN subscriptions sub ON sub.stream_id = m.stream_id AND sub.user_id = ? AND sub.active AND NOT sub.is_muted
         JOIN streams s ON s.id = m.stream_id JOIN users u ON u.id = m.sender_id
        WHERE m.realm_id = ? AND m.date_sent >= ? AND m.sender_id <> ?
        GROUP BY m.stream_id, s.name, m.topic ORDER BY n DESC, max(m.id) DESC LIMIT ?`,
      [user.id, deps.realmId, weekAgo, user.id, HOT_CONVERSATIONS],
    )
  ).rows as { stream_id: number; name: string; topic: string; n: number; senders: string[] }[];
  const channels = (
    await db.raw(`SELECT id, name FROM streams WHERE realm_id = ? AND date_created >= ? AND NOT deactivated AND NOT invite_only ORDER BY id LIMIT 10`, [
      deps.realmId,
      weekAgo,
    ])
  ).rows as { id: number; name: string }[];
  if (hot.length === 0 && channels.length === 0) return null;
  return digestEmail({
    to: user.delivery_email,
    realmName,
    realmUrl: base,
    conversations: hot.map((c) => ({
      title: `#${c.name} > ${c.topic}`,
      url: `${base}/#narrow/channel/${encodeChannel(c.stream_id, c.name)}/topic/${encodeHashComponent(c.topic)}`,
      messageCount: c.n,
      senders: [...c.senders].sort(),
    })),
    newChannels: channels.map((c) => ({ name: c.name, url: `${base}/#narrow/channel/${encodeChannel(c.id, c.name)}` })),
    unsubscribeUrl: await unsubscribeUrl({ knex: db, realmId: deps.realmId, config: deps.config }, user.id, 'digest'),
  });
}
