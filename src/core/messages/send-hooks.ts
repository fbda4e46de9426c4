import type { AppDeps } from '../../deps';
import type { UnitOfWork } from '../../db/unit-of-work';
import type { Stream } from '../channels/model';
import type { User } from '../users/model';

/**
 * What follows a channel message once it is stored: topic visibility changes the sender's
 * settings call for. Returns the sender's new visibility policy when it changed, else null.
 */
export async function afterChannelMessageSent(
  _deps: AppDeps,
  _uow: UnitOfWork,
  _sender: User,
  _stream: Stream,
  _topic: string,
  _messageId: number,
  _mentionedUserIds: Set<number>,
  _recipientIds: Set<number>,
): Promise<number | null> {
  return null;
}
