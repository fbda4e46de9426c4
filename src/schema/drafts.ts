import { Field, Float, InputType, Int, ObjectType, ID } from 'type-graphql';
import type { DraftDict } from '../core/drafts/view';

@ObjectType('Draft', { description: "A message draft kept on the server so the owner's clients stay in step." })
export class DraftType {
  @Field(() => ID) id!: number;
  @Field({ description: '"" (unaddressed), "stream" or "private".' }) type!: string;
  @Field(() => [Int], { description: "The channel id, or the other participants' user ids." }) to!: number[];
  @Field() topic!: string;
  @Field() content!: string;
  @Field(() => Int, { description: 'UNIX seconds of the last edit.' }) timestamp!: number;

  static from(dict: DraftDict): DraftType {
    return Object.assign(new DraftType(), dict);
  }
}

@InputType()
export class DraftInput {
  @Field({ description: '"" (unaddressed), "stream" or "private".' }) type!: string;
  @Field(() => [Int]) to!: number[];
  @Field() topic!: string;
  @Field() content!: string;
  @Field(() => Float, { nullable: true, description: 'UNIX seconds of the last edit; the server fills in the time when absent.' })
  timestamp?: number | null;
}
