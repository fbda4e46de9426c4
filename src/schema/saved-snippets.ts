import { Field, Int, ObjectType, ID } from 'type-graphql';
import type { SavedSnippetDict } from '../core/saved-snippets/view';

@ObjectType('SavedSnippet', { description: 'Text saved by its owner for inserting into messages.' })
export class SavedSnippetType {
  @Field(() => ID) id!: number;
  @Field() title!: string;
  @Field() content!: string;
  @Field(() => Int, { description: 'UNIX seconds.' }) dateCreated!: number;

  static from(dict: SavedSnippetDict): SavedSnippetType {
    return Object.assign(new SavedSnippetType(), { id: dict.id, title: dict.title, content: dict.content, dateCreated: dict.date_created });
  }
}
