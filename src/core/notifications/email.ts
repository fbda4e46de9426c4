import type { AppDeps } from '../deps';
import { listParam } from '../../db/lists';
import { describeFailure } from '../../failure-log';
import type { OutgoingEmail } from '../email/outbox';
import { deliverNow } from '../deliveries/attempt';
import { insertDeliveries } from '../deliveries/store';
import { MissedMessagesInput, missedMessagesEmail } from '../email/templates';
import { storedRealmSetting } from '../realm/setting-store';
import { conversationKey, conversationUrl, loadNotifiedMessages, NotifiedMessage } from './messages';
import { claimEmailJobs, finishJobs, JobRow, retryJobs } from './queue';
import { unsubscribeUrl } from './unsubscribe-links';

/**
 * Missed-message emails. Once a user's first pending email is due, everything waiting for them is
 * rendered, one email per conversation; messages read (or deleted) meanwhile are left out, and a
 * batch left empty sends nothing. The emails become outbox items in the transaction that deletes
 * the jobs, and are sent at once; the delivery worker retries them. A batch that cannot be
 * rendered (the database failing) is retried with backoff, then given up.
 */
export const EMAIL_MAX_ATTEMPTS = 5;

function reasonOf(triggers: string[]): MissedMessagesInput['reason'] {
  if (triggers.includes('direct_message')) return 'direct_message';
  if (triggers.includes('mentioned')) return 'mentioned';
  if (triggers.some((t) => t.includes('wildcard'))) return 'wildcard';
  if (triggers.includes('followed_topic_email_notify')) return 'followed_topic';
  return 'channel';
}

export async function deliverDueEmails(deps: AppDeps, now = new Date()): Promise<number> {
  const jobs = await claimEmailJobs(deps.knex, deps.realmId, now);
  if (jobs.length === 0) return 0;
  const byUser = new Map<number, JobRow[]>();
  for (const job of jobs) byUser.set(job.user_id, [...(byUser.get(job.user_id) ?? []), job]);
  let queued = 0;
  const items: number[] = [];
  for (const [userId, userJobs] of byUser) {
    const jobIds = userJobs.map((j) => j.id);
    try {
      const emails = await emailsFor(deps, userId, userJobs);
      await deps.knex.transaction(async (trx) => {
        items.push(
          ...(await insertDeliveries(
            trx,
            deps.realmId,
            emails.map((email) => ({ kind: 'email' as const, payload: { ...email } })),
          )),
        );
        await finishJobs(trx, jobIds);
      });
      queued += emails.length;
    } catch (error) {
      const attempts = Math.max(...userJobs.map((j) => j.attempts)) + 1;
      console.error(`missed-message email to user ${userId} failed (attempt ${attempts}): ${describeFailure(error)}`);
      if (attempts >= EMAIL_MAX_ATTEMPTS) await finishJobs(deps.knex, jobIds);
      else await retryJobs(deps.knex, jobIds, new Date(Date.now() + 2 ** attempts * 1000));
    }
  }
  await deliverNow(deps, items);
  return queued;
}

async function emailsFor(deps: AppDeps, userId: number, jobs: JobRow[]): Promise<OutgoingEmail[]> {
  const user = await deps.knex('users').where({ id: userId }).first();
  const settings = await deps.knex('user_settings').where({ user_id: userId }).first();
  if (!user || !user.is_active || !settings) return [];
  // Read since: cancelled.
  const unread = new Set(
    (
      (
        await deps.knex.raw('SELECT message_id FROM user_messages WHERE user_id = ? AND message_id = ANY(?::int[]) AND (flags & 1) = 0', [
          userId,
          listParam(jobs.map((j) => j.message_id!)),
        ])
      ).rows as { message_id: number }[]
    ).map((r) => r.message_id),
  );
  const messages = await loadNotifiedMessages(deps.knex, deps.config, deps.realmId, [...unread]);
  const conversations = new Map<string, { messages: NotifiedMessage[]; triggers: string[] }>();
  for (const job of [...jobs].sort((a, b) => a.message_id! - b.message_id!)) {
    const m = messages.get(job.message_id!);
    if (!m) continue;
    const key = conversationKey(m);
    const entry = conversations.get(key) ?? { messages: [], triggers: [] };
    entry.messages.push(m);
    entry.triggers.push(job.trigger);
    conversations.set(key, entry);
  }
  if (conversations.size === 0) return [];
  const realm = await deps.knex('realms').where({ id: deps.realmId }).first();
  // 1 automatic (one organization per server: left out), 2 always, 3 never.
  const realmName = settings.realm_name_in_email_notifications_policy === 2 ? (realm?.name as string) : null;
  // The organization may keep message content out of every email, whatever each user prefers.
  const contentAllowed = await storedRealmSetting(deps.knex, deps.realmId, 'message_content_allowed_in_email_notifications', true);
  const unsubscribe = await unsubscribeUrl(deps, userId, 'missed_messages');
  const emails: OutgoingEmail[] = [];
  for (const { messages: list, triggers } of conversations.values()) {
    const first = list[0];
    const conversation: MissedMessagesInput['conversation'] =
      first.streamId !== null
        ? { kind: 'channel', channel: first.streamName ?? '', topic: first.topic }
        : { kind: 'direct', names: first.dmUserIds.filter((id) => id !== userId).map((id) => first.names.get(id) ?? '') };
    if (conversation.kind === 'direct' && conversation.names.length === 0) conversation.names.push(user.full_name);
    emails.push(
      missedMessagesEmail({
        to: user.delivery_email,
        conversation,
        reason: reasonOf(triggers),
        messages: list.map((m) => ({ senderName: m.senderName, html: m.html, time: m.time })),
        includeContent: contentAllowed && Boolean(settings.message_content_in_email_notifications),
        realmName,
        realmUrl: deps.config.externalUrl,
        conversationUrl: conversationUrl(deps.config, first, userId),
        settingsUrl: `${deps.config.externalUrl}/#settings/notifications`,
        unsubscribeUrl: unsubscribe,
      }),
    );
  }
  return emails;
}
