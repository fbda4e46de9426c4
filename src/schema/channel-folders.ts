import { Field, Int, ObjectType, ID } from 'type-graphql';
import type { ChannelFolderDict } from '../core/channel-folders/view';

@ObjectType('ChannelFolder', { description: 'A folder grouping channels in the sidebar.' })
export class ChannelFolderType {
  @Field(() => ID) id!: number;
  @Field() name!: string;
  @Field() description!: string;
  @Field({ description: 'The description as safe HTML.' }) renderedDescription!: string;
  @Field(() => Int, { nullable: true }) creatorId!: number | null;
  @Field(() => Int, { description: 'UNIX time of creation.' }) dateCreated!: number;
  @Field() isArchived!: boolean;
  @Field(() => Int, { description: 'Display position, 0-based.' }) order!: number;

  static from(dict: ChannelFolderDict): ChannelFolderType {
    return Object.assign(new ChannelFolderType(), {
      id: dict.id,
      name: dict.name,
      description: dict.description,
      renderedDescription: dict.rendered_description,
      creatorId: dict.creator_id,
      dateCreated: dict.date_created,
      isArchived: dict.is_archived,
      order: dict.order,
    });
  }
}
