import { graphql } from '../graphql';

/** The user's whole starting picture, in POST /register's shape (asked after subscribing to events). */
export const InitialStateQuery = graphql(`
  query InitialState {
    initialState(includeSubscribers: false, applyMarkdown: true)
  }
`);

/**
 * Every change the user may see, typed by kind. Payload fields the schema types as JSON keep Zulip's
 * snake_case shape.
 */
export const EventsSubscription = graphql(`
  subscription Events {
    events {
      __typename
      eventId
      type
      ... on MessageEvent { flags message }
      ... on UpdateMessageEvent {
        messageId messageIds content renderedContent editTimestamp flags isMeMessage newStreamId origSubject
        propagateMode renderingOnly streamId subject topicLinks userId
      }
      ... on DeleteMessageEvent { messageId messageIds messageType streamId topic }
      ... on UpdateMessageFlagsEvent { all flag messages op operation messageDetails }
      ... on ReactionEvent { op messageId emojiCode emojiName reactionType userId }
      ... on SubmessageEvent { messageId submessageId senderId msgType content }
      ... on TypingEvent { op messageType sender recipients streamId topic }
      ... on TypingEditMessageEvent { op messageId senderId recipient }
      ... on PresenceEvent { userId email presence presences serverTimestamp }
      ... on SubscriptionEvent { op property streamId streamIds subscriptions userIds value }
      ... on StreamEvent { op property streamId streamIds streams name value renderedDescription historyPublicToSubscribers isWebPublic }
      ... on RealmUserEvent { op person }
      ... on RealmEvent { op property value data extraData }
      ... on RealmEmojiEvent { op realmEmoji }
      ... on UserSettingsEvent { op property value languageName }
      ... on UserTopicEvent { streamId topicName lastUpdated visibilityPolicy }
      ... on MutedUsersEvent { mutedUsers }
      ... on DraftsEvent { op draft draftId drafts }
      ... on UserStatusEvent { userId away statusText emojiName emojiCode reactionType }
      ... on UserGroupEvent { op groupId group data userIds directSubgroupIds }
      ... on AlertWordsEvent { alertWords }
      ... on CustomProfileFieldsEvent { fields }
      ... on AttachmentEvent { op attachment uploadSpaceUsed }
      ... on SavedSnippetsEvent { op savedSnippet savedSnippetId }
      ... on RealmExportEvent { exports }
    }
  }
`);
