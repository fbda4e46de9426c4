import type { Knex } from 'knex';
import { errors } from '../../errors';
import type { MessageRow } from '../messages/model';
import { hasSubmessageFrom } from './queries';

/**
 * Anyone who can see a message may act on its widget, but only once the widget exists: the first
 * submessage of a message must come from the message's own sender (Zulip's rule).
 */
export async function verifySubmessageSender(db: Knex, message: Pick<MessageRow, 'id' | 'sender_id'>, senderId: number): Promise<void> {
  if (message.sender_id === senderId) return;
  if (await hasSubmessageFrom(db, message.id, message.sender_id)) return;
  throw errors.badRequest('You cannot attach a submessage to this message.');
}
