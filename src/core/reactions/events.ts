import type { ZulipEvent } from '../../realtime/bus';
import type { User } from '../users/model';

/** Zulip's reaction event, with the deprecated `user` object some clients still read. */
export function reactionEvent(
  op: 'add' | 'remove',
  user: Pick<User, 'id' | 'full_name'>,
  email: string,
  messageId: number,
  emoji: { emojiName: string; emojiCode: string; reactionType: string },
): ZulipEvent {
  return {
    type: 'reaction',
    op,
    user_id: user.id,
    user: { user_id: user.id, email, full_name: user.full_name },
    message_id: messageId,
    emoji_name: emoji.emojiName,
    emoji_code: emoji.emojiCode,
    reaction_type: emoji.reactionType,
  };
}
