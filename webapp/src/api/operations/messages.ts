import { graphql } from '../graphql';

export const MessageFields = graphql(`
  fragment MessageFields on Message @_unmask {
    id
    type
    senderId
    senderFullName
    senderEmail
    avatarUrl
    streamId
    channelName
    topic
    content
    timestamp
    flags
    lastEditTimestamp
    lastMovedTimestamp
    isMeMessage
    matchContent
    matchTopic
    directRecipients { id email fullName }
    reactions { emojiName emojiCode reactionType userId }
    submessages { id senderId msgType content }
  }
`);

/** A page of a narrow's messages around an anchor (newest, oldest, first_unread or an id). */
export const MessagesQuery = graphql(
  `
  query Messages($narrow: [NarrowTermInput!], $anchor: String!, $numBefore: Int!, $numAfter: Int!, $includeAnchor: Boolean!) {
    messages(narrow: $narrow, anchor: $anchor, numBefore: $numBefore, numAfter: $numAfter, includeAnchor: $includeAnchor) {
      anchor
      foundAnchor
      foundNewest
      foundOldest
      historyLimited
      messages { ...MessageFields }
    }
  }
`,
  [MessageFields],
);

export const SendMessageMutation = graphql(`
  mutation SendMessage($input: SendMessageInput!) {
    sendMessage(input: $input) { id }
  }
`);

export const UpdateFlagsMutation = graphql(`
  mutation UpdateFlags($messageIds: [Int!]!, $op: String!, $flag: String!) {
    updateFlags(messageIds: $messageIds, op: $op, flag: $flag) { messages }
  }
`);
