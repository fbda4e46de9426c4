import { Field, Int, ObjectType, ID } from 'type-graphql';

@ObjectType('NarrowMatch', { description: 'A message matching a narrow, with search matches highlighted.' })
export class NarrowMatchType {
  @Field(() => ID) id!: number;
  @Field({ description: 'Rendered content, search matches in <span class="highlight">.' }) matchContent!: string;
  @Field({ description: 'HTML-escaped topic, search matches highlighted.' }) matchTopic!: string;
}
