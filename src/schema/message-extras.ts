import { Field, Int, ObjectType, ID } from 'type-graphql';

@ObjectType('NarrowMatch', { description: 'A message matching a narrow, with search matches highlighted.' })
export class NarrowMatchType {
  @Field(() => ID) id!: number;
  @Field({ description: 'Rendered content, search matches in <span class="highlight">.' }) matchContent!: string;
  @Field({ description: 'HTML-escaped topic, search matches highlighted.' }) matchTopic!: string;
}

@ObjectType('EditMessageTypingPayload', { description: 'The edit typing notification was sent to those who can see the message.' })
export class EditMessageTypingPayload {
  @Field(() => Int) messageId!: number;
  @Field({ description: 'start or stop.' }) op!: string;
}

@ObjectType('DeleteTopicPayload', { description: "The topic's messages deleted, all of them when complete." })
export class DeleteTopicPayload {
  @Field(() => Int) streamId!: number;
  @Field() topic!: string;
  @Field({ description: 'False when time ran out before the topic was empty; call again.' }) complete!: boolean;
}
