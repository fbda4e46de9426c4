import { graphQLClient } from '../../api/instance';
import { AddReactionMutation, RemoveReactionMutation } from '../../api/operations/reactions';
import { getApp } from '../../state/store';

export interface EmojiChoice {
  name: string;
  code: string;
  type: string;
}

/**
 * Adds the user's reaction, or takes it back if they already reacted so. The reaction event updates
 * the message in every tab; the error, if any, is returned for the view to show.
 */
export async function toggleReaction(messageId: number, emoji: EmojiChoice): Promise<string | null> {
  const { messages, me } = getApp();
  const mine = messages.get(messageId)?.reactions.some((r) => r.userId === me && r.emojiCode === emoji.code && r.reactionType === emoji.type);
  const variables = { messageId, emojiName: emoji.name, emojiCode: emoji.code, reactionType: emoji.type };
  const result = mine
    ? await graphQLClient().mutation(RemoveReactionMutation, variables).toPromise()
    : await graphQLClient().mutation(AddReactionMutation, variables).toPromise();
  return result.error ? (result.error.graphQLErrors[0]?.message ?? result.error.message) : null;
}
