import { Field, Int, ObjectType } from 'type-graphql';

@ObjectType('MarkAsReadPayload', { description: 'Messages are marked as read; unread counts follow by the update_message_flags event.' })
export class MarkAsReadPayload {
  @Field({ description: 'False when the work stopped early and should be asked for again.' }) complete!: boolean;
}

@ObjectType('NarrowFlagsPayload', { description: 'A flag changed over a window of a narrow (REST: POST /messages/flags/narrow).' })
export class NarrowFlagsPayload {
  @Field(() => Int) processedCount!: number;
  @Field(() => Int) updatedCount!: number;
  @Field(() => Int, { nullable: true }) firstProcessedId!: number | null;
  @Field(() => Int, { nullable: true }) lastProcessedId!: number | null;
  @Field() foundOldest!: boolean;
  @Field() foundNewest!: boolean;
  @Field(() => [Int], { nullable: true, description: 'Marking unread: channels skipped because you are not subscribed.' })
  ignoredBecauseNotSubscribedChannels!: number[] | null;
}

@ObjectType('TypingPayload', { description: 'The typing notification was sent to the conversation.' })
export class TypingPayload {
  @Field({ description: 'start or stop.' }) op!: string;
}
