import { GraphQLJSON } from 'graphql-scalars';
import { Field, Int, ObjectType, ID } from 'type-graphql';
import type { ZulipEvent } from '../realtime/bus';

/**
 * Types of the live subscriptions. `events` yields Zulip-shaped events as they are; the typed
 * subscriptions expose the common fields of message and reaction events.
 */

@ObjectType({ description: 'A message as carried by a message event.' })
export class LiveMessage {
  @Field(() => ID) id!: number;
  @Field(() => Int) senderId!: number;
  @Field() senderFullName!: string;
  @Field() senderEmail!: string;
  @Field({ description: '"stream" for channel messages, "private" for direct messages.' }) type!: string;
  @Field(() => Int, { nullable: true, description: 'The channel of a channel message.' }) streamId!: number | null;
  @Field({ description: 'Topic of a channel message; empty for direct messages.' }) topic!: string;
  @Field({ description: 'Rendered HTML.' }) content!: string;
  @Field(() => Int, { description: 'UNIX timestamp (seconds) the message was sent.' }) timestamp!: number;
  @Field(() => GraphQLJSON, { description: 'Channel name, or the list of direct-message participants.' }) displayRecipient!: unknown;
}

@ObjectType('MessageDelivery', { description: 'A new message the subscriber received.' })
export class MessageEventType {
  @Field(() => Int, { description: 'Position of the event in this subscription, from 0.' }) eventId!: number;
  @Field(() => LiveMessage) message!: LiveMessage;
  @Field(() => [String], { description: "The subscriber's flags on the message (read, mentioned, ...)." }) flags!: string[];

  static from(event: ZulipEvent): MessageEventType {
    const m = (event.message ?? {}) as Record<string, unknown>;
    const message = Object.assign(new LiveMessage(), {
      id: m.id,
      senderId: m.sender_id,
      senderFullName: m.sender_full_name ?? '',
      senderEmail: m.sender_email ?? '',
      type: m.type,
      streamId: m.stream_id ?? null,
      topic: (m.subject ?? m.topic ?? '') as string,
      content: m.content ?? '',
      timestamp: m.timestamp ?? 0,
      displayRecipient: m.display_recipient ?? null,
    });
    return Object.assign(new MessageEventType(), { eventId: event.id, message, flags: (event.flags as string[]) ?? [] });
  }
}

@ObjectType('ReactionDelivery', { description: 'An emoji reaction added to or removed from a message the subscriber can see.' })
export class ReactionEventType {
  @Field(() => Int) eventId!: number;
  @Field({ description: '"add" or "remove".' }) op!: string;
  @Field(() => Int) messageId!: number;
  @Field(() => Int) userId!: number;
  @Field() emojiName!: string;
  @Field() emojiCode!: string;
  @Field({ description: 'unicode_emoji, realm_emoji or zulip_extra_emoji.' }) reactionType!: string;

  static from(event: ZulipEvent): ReactionEventType {
    const user = (event.user ?? {}) as Record<string, unknown>;
    return Object.assign(new ReactionEventType(), {
      eventId: event.id,
      op: event.op,
      messageId: event.message_id,
      userId: event.user_id ?? user.user_id,
      emojiName: event.emoji_name,
      emojiCode: event.emoji_code,
      reactionType: event.reaction_type,
    });
  }
}
