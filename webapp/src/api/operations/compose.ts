import { graphql } from '../graphql';

/** Sends one message; the idempotency key makes a retry return the first send's message. */
export const SendComposedMessage = graphql(`
  mutation SendComposedMessage($input: SendMessageInput!) {
    sendMessage(input: $input) { id }
  }
`);

/** The server's HTML for a message's Markdown, for the preview. */
export const RenderMessageQuery = graphql(`
  query RenderMessage($content: String!) {
    renderMessage(content: $content)
  }
`);

export const SetTypingMutation = graphql(`
  mutation SetTyping($op: String!, $streamId: Int, $topic: String, $userIds: [Int!]) {
    setTyping(op: $op, streamId: $streamId, topic: $topic, userIds: $userIds) { op }
  }
`);
