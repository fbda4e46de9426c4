import { graphql } from '../graphql';

export const AddReactionMutation = graphql(`
  mutation AddReaction($messageId: Int!, $emojiName: String!, $emojiCode: String, $reactionType: String) {
    addReaction(messageId: $messageId, emojiName: $emojiName, emojiCode: $emojiCode, reactionType: $reactionType) { message { id } }
  }
`);

export const RemoveReactionMutation = graphql(`
  mutation RemoveReaction($messageId: Int!, $emojiName: String, $emojiCode: String, $reactionType: String!) {
    removeReaction(messageId: $messageId, emojiName: $emojiName, emojiCode: $emojiCode, reactionType: $reactionType) { message { id } }
  }
`);
