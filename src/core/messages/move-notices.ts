import type { AppDeps } from '../deps';
import type { UnitOfWork } from '../../db/unit-of-work';
import type { Stream } from '../channels/model';
import { notificationBot } from '../system-bots/notification-bot';
import type { User } from '../users/model';
import type { PropagateMode } from './propagate-mode';
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
    await sendInternalMessage(deps, uow, bot, here, `${by} has marked this topic as ${move.resolved ? 'resolved' : 'unresolved'}.`);
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
