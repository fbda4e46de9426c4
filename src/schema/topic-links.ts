import { Field, ObjectType } from 'type-graphql';

@ObjectType('TopicLink', { description: "A link found in a message's topic: a linkifier's match, or a web link." })
export class TopicLinkType {
  @Field({ description: 'The text of the topic that is linked.' }) text!: string;
  @Field() url!: string;
}
