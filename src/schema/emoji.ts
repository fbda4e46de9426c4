import { Field, ID, Int, ObjectType } from 'type-graphql';
import type { RealmEmojiDict } from '../core/emoji/view';

@ObjectType('RealmEmoji', { description: 'A custom emoji of the organization.' })
export class RealmEmojiType {
  @Field(() => ID) id!: string;
  @Field({ description: 'Written as :name: in messages.' }) name!: string;
  @Field({ description: 'Image path relative to the server URL.' }) sourceUrl!: string;
  @Field(() => String, { nullable: true, description: 'A still image, for animated emoji.' }) stillUrl!: string | null;
  @Field() deactivated!: boolean;
  @Field(() => Int, { nullable: true }) authorId!: number | null;

  static from(dict: RealmEmojiDict): RealmEmojiType {
    return Object.assign(new RealmEmojiType(), {
      id: dict.id,
      name: dict.name,
      sourceUrl: dict.source_url,
      stillUrl: dict.still_url,
      deactivated: dict.deactivated,
      authorId: dict.author_id,
    });
  }
}
