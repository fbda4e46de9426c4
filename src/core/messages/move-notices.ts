import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import type { UnitOfWork } from '../../db/unit-of-work';
import type { Stream } from '../channels/model';
import { notificationBot } from '../system-bots/notification-bot';
import type { User } from '../users/model';
import type { PropagateMode } from './propagate-mode';
import { VisibilityPolicy } from '../user-topics/store';
import { sendInternalMessage } from './send';

/**
 * The notification bot's notices about a topic edit, as Zulip posts them: resolving or
 * unresolving a topic is announced in it; a move is announced in the new place (unless the
 * editor asked not to) and, when asked, in the old one.
 */
export interface TopicMove {
  mover: User;
  origStream: Stream;
  origTopic: string;
  targetStream: Stream;
  targetTopic: string;
  mode: PropagateMode;
  movedCount: number;
  resolved: boolean;
  unresolved: boolean;
  notifyOldThread: boolean;
  notifyNewThread: boolean;
}

const link = (stream: Stream, topic: string) => `#**${stream.name}>${topic}**`;

function movedPhrase(count: number, mode: PropagateMode, whole: string): string {
  if (mode === 'change_all') return whole;
  return count === 1 ? 'A message was moved' : `${count} messages were moved`;
}

export async function sendTopicEditNotices(deps: AppDeps, uow: UnitOfWork, move: TopicMove): Promise<void> {
  const bot = await notificationBot(uow.trx);
  const by = `@_**${move.mover.full_name}|${move.mover.id}**`;
  const movesChannel = move.origStream.id !== move.targetStream.id;
  const here = { stream: move.targetStream, topic: move.targetTopic };
  if ((move.resolved || move.unresolved) && !movesChannel) {
    const unreadOnlyFor = await resolveNoticeUnreadFor(uow.trx, deps.realmId, move);
    const notice = `${by} has marked this topic as ${move.resolved ? 'resolved' : 'unresolved'}.`;
    await sendInternalMessage(deps, uow, bot, here, notice, { unreadOnlyFor });
    return;
  }
  if (move.notifyNewThread) {
    const what = movedPhrase(move.movedCount, move.mode, 'This topic was moved');
    await sendInternalMessage(deps, uow, bot, here, `${what} here from ${link(move.origStream, move.origTopic)} by ${by}.`);
  }
  if (move.notifyOldThread) {
    const what = movedPhrase(move.movedCount, move.mode, 'This topic was moved');
    const where = move.mode === 'change_all' ? 'to' : 'from this topic to';
    await sendInternalMessage(
      deps,
      uow,
      bot,
      { stream: move.origStream, topic: move.origTopic },
      `${what} ${where} ${link(move.targetStream, move.targetTopic)} by ${by}.`,
    );
  }
}

/**
 * Who gets a resolve or unresolve notice unread, by their resolved_topic_notice_auto_read_policy
 * (as Zulip decides): active human subscribers whose policy is "never", or "except_followed" while
 * they follow the topic (under its old or its new name). Every other copy, the resolver's and
 * bots' included, starts read.
 */
async function resolveNoticeUnreadFor(db: Knex, realmId: number, move: TopicMove): Promise<Set<number>> {
  const result = await db.raw(
    `SELECT s.user_id
       FROM subscriptions s
       JOIN users u ON u.id = s.user_id
       LEFT JOIN user_settings us ON us.user_id = s.user_id
      WHERE s.stream_id = ? AND s.active AND u.is_active AND NOT u.is_bot AND u.id <> ?
        AND CASE COALESCE(us.resolved_topic_notice_auto_read_policy,
                          (SELECT d.resolved_topic_notice_auto_read_policy FROM realm_user_default_settings d WHERE d.realm_id = ?),
                          'except_followed')
              WHEN 'never' THEN true
              WHEN 'except_followed' THEN EXISTS (
                SELECT 1 FROM user_topics ut
                 WHERE ut.user_id = s.user_id AND ut.stream_id = s.stream_id AND ut.visibility_policy = ?
                   AND lower(ut.topic_name) IN (lower(?), lower(?)))
              ELSE false
            END`,
    [move.targetStream.id, move.mover.id, realmId, VisibilityPolicy.FOLLOWED, move.origTopic, move.targetTopic],
  );
  return new Set((result.rows as { user_id: number }[]).map((r) => Number(r.user_id)));
}
