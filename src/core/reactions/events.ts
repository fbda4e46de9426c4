import type { ZulipEvent } from '../../realtime/bus';

/** Zulip's reaction event. The reacting user is `user_id` alone: the old `user` object went at level 484. */
export function reactionEvent(
  op: 'add' | 'remove',
  userId: number,
  messageId: number,
  emoji: { emojiName: string; emojiCode: string; reactionType: string },
): ZulipEvent {
  return {
    type: 'reaction',
    op,
    user_id: userId,
    message_id: messageId,
    emoji_name: emoji.emojiName,
    emoji_code: emoji.emojiCode,
    reaction_type: emoji.reactionType,
  };
}
