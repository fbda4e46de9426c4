import { graphql } from '../graphql';

/** An action on a message's poll or to-do list: content is the action's JSON. */
export const SendSubmessageMutation = graphql(`
  mutation SendSubmessage($messageId: Int!, $content: String!) {
    sendSubmessage(messageId: $messageId, content: $content) { message { id } }
  }
`);
