import { Field, Float, InputType, Int, ObjectType, ID } from 'type-graphql';
import type { Snapshot } from '../core/messages/history';
import { SubmessageType } from './submessages';

@ObjectType('Reaction', { description: 'An emoji reaction: one user, one emoji.' })
export class MessageReactionType {
  @Field() emojiName!: string;
  @Field({ description: 'Identifies the emoji within its reaction type.' }) emojiCode!: string;
  @Field({ description: 'unicode_emoji, realm_emoji or zulip_extra_emoji.' }) reactionType!: string;
  @Field(() => Int) userId!: number;
}

@ObjectType('DirectRecipient', { description: 'A participant of a direct message.' })
export class DirectRecipientType {
  @Field(() => ID) id!: number;
  @Field() email!: string;
  @Field() fullName!: string;
}

@ObjectType('Message', { description: 'A message as you see it, with your flags.' })
export class MessageType {
  @Field(() => ID) id!: number;
  @Field(() => Int) senderId!: number;
  @Field() senderEmail!: string;
  @Field() senderFullName!: string;
  @Field(() => String, { nullable: true, description: 'Null when clientGravatar was asked for and you can compute it.' })
  avatarUrl!: string | null;
  @Field({ description: 'The sending client.' }) client!: string;
  @Field({ description: 'HTML, or Markdown when applyMarkdown is false.' }) content!: string;
  @Field({ description: 'text/html or text/x-markdown.' }) contentType!: string;
  @Field(() => String, { nullable: true, description: 'The Markdown source (single-message queries only).' }) rawContent!: string | null;
  @Field(() => Int, { description: 'The conversation: a channel or a set of users.' }) recipientId!: number;
  @Field({ description: '"stream" or "private".' }) type!: string;
  @Field(() => Int, { nullable: true }) streamId!: number | null;
  @Field(() => String, { nullable: true }) channelName!: string | null;
  @Field(() => [DirectRecipientType], { nullable: true, description: 'Direct messages: every participant.' })
  directRecipients!: DirectRecipientType[] | null;
  @Field({ description: 'Empty for direct messages.' }) topic!: string;
  @Field(() => Int, { description: 'UNIX seconds.' }) timestamp!: number;
  @Field() isMeMessage!: boolean;
  @Field(() => [MessageReactionType]) reactions!: MessageReactionType[];
  @Field(() => [SubmessageType], { description: 'Widget data (polls, to-do lists); empty for other messages.' }) submessages!: SubmessageType[];
  @Field(() => [String]) flags!: string[];
  @Field(() => Int, { nullable: true, description: 'Last content edit.' }) lastEditTimestamp!: number | null;
  @Field(() => Int, { nullable: true, description: 'Last move to another topic or channel.' }) lastMovedTimestamp!: number | null;
  @Field(() => String, { nullable: true, description: 'Search results: content with matches highlighted.' }) matchContent!: string | null;
  @Field(() => String, { nullable: true, description: 'Search results: topic with matches highlighted.' }) matchTopic!: string | null;

  static from(dict: Record<string, any>, rawContent: string | null = null): MessageType {
    const direct = Array.isArray(dict.display_recipient) ? dict.display_recipient : null;
    return Object.assign(new MessageType(), {
      id: dict.id,
      senderId: dict.sender_id,
      senderEmail: dict.sender_email,
      senderFullName: dict.sender_full_name,
      avatarUrl: dict.avatar_url,
      client: dict.client,
      content: dict.content,
      contentType: dict.content_type,
      rawContent,
      recipientId: dict.recipient_id,
      type: dict.type,
      streamId: dict.stream_id ?? null,
      channelName: direct ? null : dict.display_recipient,
      directRecipients: direct
        ? direct.map((r: { id: number; email: string; full_name: string }) =>
            Object.assign(new DirectRecipientType(), { id: r.id, email: r.email, fullName: r.full_name }),
          )
        : null,
      topic: dict.subject,
      timestamp: dict.timestamp,
      isMeMessage: dict.is_me_message,
      reactions: dict.reactions.map((r: { emoji_name: string; emoji_code: string; reaction_type: string; user_id: number }) =>
        Object.assign(new MessageReactionType(), { emojiName: r.emoji_name, emojiCode: r.emoji_code, reactionType: r.reaction_type, userId: r.user_id }),
      ),
      submessages: (dict.submessages ?? []).map(SubmessageType.from),
      flags: dict.flags,
      lastEditTimestamp: dict.last_edit_timestamp ?? null,
      lastMovedTimestamp: dict.last_moved_timestamp ?? null,
      matchContent: dict.match_content ?? null,
      matchTopic: dict.match_subject ?? null,
    });
  }
}

@ObjectType('MessageEdge', { description: 'A message and the cursor to page from it.' })
export class MessageEdge {
  @Field() cursor!: string;
  @Field(() => MessageType) node!: MessageType;
}

@ObjectType('PageInfo', { description: 'Relay page information.' })
export class PageInfo {
  @Field() hasPreviousPage!: boolean;
  @Field() hasNextPage!: boolean;
  @Field(() => String, { nullable: true }) startCursor!: string | null;
  @Field(() => String, { nullable: true }) endCursor!: string | null;
}

@ObjectType('MessageConnection', {
  description: "A window of messages in a narrow, oldest first: a Relay connection (edges, pageInfo) that also carries Zulip's anchor fields.",
})
export class MessagePageType {
  @Field(() => [MessageType], { description: 'The nodes of edges, for clients that do not need cursors.' }) messages!: MessageType[];
  @Field(() => [MessageEdge]) edges!: MessageEdge[];
  @Field(() => PageInfo) pageInfo!: PageInfo;
  @Field(() => Float, { description: 'The anchor used (10^16 stands for "newest").' }) anchor!: number;
  @Field() foundAnchor!: boolean;
  @Field({ description: 'No older messages match the narrow.' }) foundOldest!: boolean;
  @Field({ description: 'No newer messages match the narrow.' }) foundNewest!: boolean;
  @Field() historyLimited!: boolean;
  @Field(() => String, { nullable: true, description: 'Pass as `before` for the previous page.' }) startCursor!: string | null;
  @Field(() => String, { nullable: true, description: 'Pass as `after` for the next page.' }) endCursor!: string | null;
}

@InputType({ description: 'One narrow term. Operands are text (operand), a number (operandId) or a list of user ids (operandIds).' })
export class NarrowTermInput {
  @Field() operator!: string;
  @Field({ nullable: true }) operand?: string;
  @Field(() => Int, { nullable: true }) operandId?: number;
  @Field(() => [Int], { nullable: true }) operandIds?: number[];
  @Field({ defaultValue: false }) negated!: boolean;
}

@ObjectType('MessageSnapshot', { description: 'The message as of one edit (the first: as sent). prev* fields only for what that edit changed.' })
export class MessageSnapshotType {
  @Field() topic!: string;
  @Field(() => String, { nullable: true }) prevTopic!: string | null;
  @Field(() => Int, { nullable: true }) stream!: number | null;
  @Field(() => Int, { nullable: true }) prevStream!: number | null;
  @Field() content!: string;
  @Field() renderedContent!: string;
  @Field(() => String, { nullable: true }) prevContent!: string | null;
  @Field(() => String, { nullable: true }) prevRenderedContent!: string | null;
  @Field(() => String, { nullable: true }) contentHtmlDiff!: string | null;
  @Field(() => Int, { nullable: true }) userId!: number | null;
  @Field(() => Int) timestamp!: number;

  static from(s: Snapshot): MessageSnapshotType {
    return Object.assign(new MessageSnapshotType(), {
      topic: s.topic,
      prevTopic: s.prev_topic ?? null,
      stream: s.stream ?? null,
      prevStream: s.prev_stream ?? null,
      content: s.content,
      renderedContent: s.rendered_content,
      prevContent: s.prev_content ?? null,
      prevRenderedContent: s.prev_rendered_content ?? null,
      contentHtmlDiff: s.content_html_diff ?? null,
      userId: s.user_id,
      timestamp: s.timestamp,
    });
  }
}

@InputType({ description: 'Give a channel (channelId or channelName) and a topic, or users (userIds or emails).' })
export class SendMessageInput {
  @Field(() => Int, { nullable: true }) channelId?: number;
  @Field({ nullable: true }) channelName?: string;
  @Field({ nullable: true }) topic?: string;
  @Field(() => [Int], { nullable: true }) userIds?: number[];
  @Field(() => [String], { nullable: true }) emails?: string[];
  @Field() content!: string;
  @Field({ nullable: true, description: 'Echoed in the message event to the queue named by queueId.' }) localId?: string;
  @Field({ nullable: true }) queueId?: string;
  @Field(() => Boolean, {
    nullable: true,
    description: "Whether your copy starts read. Unset: unread, as for Zulip's API clients; interactive clients say true.",
  })
  readBySender?: boolean;
  @Field({
    nullable: true,
    description: 'A key of your choosing (a UUID): sending again with the same key within a day returns the first message instead of a second one.',
  })
  idempotencyKey?: string;
}

@ObjectType('SendMessageResult')
export class SendMessageResultType {
  @Field(() => ID) id!: number;
  @Field(() => Int, { nullable: true, description: 'Your new policy for the topic, when sending changed it (2 unmuted, 3 followed).' })
  automaticNewVisibilityPolicy!: number | null;
}

@InputType({ description: 'What to change: content, topic and/or channel.' })
export class EditMessageInput {
  @Field({ nullable: true }) content?: string;
  @Field({ nullable: true }) topic?: string;
  @Field(() => Int, { nullable: true }) streamId?: number;
  @Field({ defaultValue: 'change_one', description: 'change_one, change_later or change_all.' }) propagateMode!: string;
  @Field({ defaultValue: false }) sendNotificationToOldThread!: boolean;
  @Field({ defaultValue: true }) sendNotificationToNewThread!: boolean;
}

@ObjectType('UpdateFlagsResult')
export class UpdateFlagsResultType {
  @Field(() => [Int], { description: 'Messages whose flag changed.' }) messages!: number[];
  @Field(() => [Int], { nullable: true, description: 'When marking unread: channels skipped because you are not subscribed.' })
  ignoredBecauseNotSubscribedChannels!: number[] | null;
}

@ObjectType('Topic')
export class TopicType {
  @Field() name!: string;
  @Field(() => Int, { description: 'The latest message in the topic.' }) maxId!: number;
}

@ObjectType('MessagePayload', { description: 'The message as it is after the change.' })
export class MessagePayload {
  @Field(() => MessageType) message!: MessageType;
}

@ObjectType('DeletedMessagePayload')
export class DeletedMessagePayload {
  @Field(() => ID, { description: 'The id of the deleted message.' }) id!: number;
}

@ObjectType('UserTopicPayload', { description: 'Your visibility policy for a topic after the change.' })
export class UserTopicPayload {
  @Field(() => ID, { description: 'Channel id and topic, for client caches.' }) id!: string;
  @Field(() => Int) streamId!: number;
  @Field() topic!: string;
  @Field(() => Int) visibilityPolicy!: number;
}
