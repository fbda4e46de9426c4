import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import type { ReminderDict, ScheduledMessageDict } from '../core/scheduled-messages/view';

@ObjectType({ description: 'A message waiting to be sent at a chosen time (Zulip\'s "send later").' })
export class ScheduledMessage {
  @Field(() => ID) id!: string;
  @Field(() => Int, { description: 'The id REST calls scheduled_message_id.' }) scheduledMessageId!: number;
  @Field({ description: '"stream" or "private".' }) type!: string;
  @Field(() => Int, { nullable: true, description: 'Channel messages: the channel.' }) channelId!: number | null;
  @Field(() => [Int], { description: 'Direct messages: the other participants (the sender alone when to oneself).' }) recipientIds!: number[];
  @Field(() => String, { nullable: true, description: 'Channel messages: the topic.' }) topic!: string | null;
  @Field() content!: string;
  @Field() renderedContent!: string;
  @Field(() => Int, { description: 'UNIX seconds of the delivery.' }) scheduledDeliveryTimestamp!: number;
  @Field({ description: 'Whether the server tried to send it and could not.' }) failed!: boolean;

  static from(dict: ScheduledMessageDict): ScheduledMessage {
    return Object.assign(new ScheduledMessage(), {
      id: String(dict.scheduled_message_id),
      scheduledMessageId: dict.scheduled_message_id,
      type: dict.type,
      channelId: dict.type === 'stream' ? (dict.to as number) : null,
      recipientIds: dict.type === 'private' ? (dict.to as number[]) : [],
      topic: dict.topic ?? null,
      content: dict.content,
      renderedContent: dict.rendered_content,
      scheduledDeliveryTimestamp: dict.scheduled_delivery_timestamp,
      failed: dict.failed,
    });
  }
}

@ObjectType({ description: 'A reminder of a message, delivered to you by the notification bot.' })
export class Reminder {
  @Field(() => ID) id!: string;
  @Field(() => Int, { description: 'The id REST calls reminder_id.' }) reminderId!: number;
  @Field(() => Int) reminderTargetMessageId!: number;
  @Field() content!: string;
  @Field() renderedContent!: string;
  @Field(() => Int, { description: 'UNIX seconds of the delivery.' }) scheduledDeliveryTimestamp!: number;
  @Field() failed!: boolean;

  static from(dict: ReminderDict): Reminder {
    return Object.assign(new Reminder(), {
      id: String(dict.reminder_id),
      reminderId: dict.reminder_id,
      reminderTargetMessageId: dict.reminder_target_message_id,
      content: dict.content,
      renderedContent: dict.rendered_content,
      scheduledDeliveryTimestamp: dict.scheduled_delivery_timestamp,
      failed: dict.failed,
    });
  }
}

@ObjectType({ description: 'The scheduled message a mutation created, changed or cancelled.' })
export class ScheduledMessagePayload {
  @Field(() => ScheduledMessage) scheduledMessage!: ScheduledMessage;
}

@ObjectType({ description: 'The reminder a mutation created or cancelled.' })
export class ReminderPayload {
  @Field(() => Reminder) reminder!: Reminder;
}

@InputType()
export class CreateScheduledMessageInput {
  @Field({ description: '"stream", "channel", "private" or "direct".' }) type!: string;
  @Field(() => Int, { nullable: true, description: 'Channel messages: the channel.' }) channelId?: number | null;
  @Field(() => [Int], { nullable: true, description: 'Direct messages: the recipients.' }) recipientIds?: number[] | null;
  @Field(() => String, { nullable: true }) topic?: string | null;
  @Field() content!: string;
  @Field(() => Int) scheduledDeliveryTimestamp!: number;
  @Field(() => Boolean, { nullable: true }) readBySender?: boolean | null;
}

@InputType()
export class UpdateScheduledMessageInput {
  @Field(() => String, { nullable: true, description: 'A new type; needs channelId or recipientIds.' }) type?: string | null;
  @Field(() => Int, { nullable: true }) channelId?: number | null;
  @Field(() => [Int], { nullable: true }) recipientIds?: number[] | null;
  @Field(() => String, { nullable: true }) topic?: string | null;
  @Field(() => String, { nullable: true }) content?: string | null;
  @Field(() => Int, { nullable: true }) scheduledDeliveryTimestamp?: number | null;
}
