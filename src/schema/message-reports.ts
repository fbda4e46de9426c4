import { Field, ID, ObjectType } from 'type-graphql';

@ObjectType('ReportMessagePayload', { description: 'The message reported to the moderators.' })
export class ReportMessagePayload {
  @Field(() => ID) messageId!: number;
}
