import { Arg, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { createFolder, reorderFolders, updateFolder } from '../core/channel-folders/actions';
import { MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH, MAX_CHANNEL_FOLDER_NAME_LENGTH } from '../core/channel-folders/limits';
import { listFolders } from '../core/channel-folders/queries';
import type { User } from '../core/users/model';
import { v } from '../validation/validate';
import type { GraphQLContext } from '../schema/context';
import { ChannelFolderType } from '../schema/channel-folders';

const me = (ctx: GraphQLContext) => ctx.user as User;
// The same length rules and messages as the REST parameters.
const checkName = (name: string) => v.string({ maxLength: MAX_CHANNEL_FOLDER_NAME_LENGTH, allowNul: true })(name, 'name');
const checkDescription = (text: string) => v.string({ maxLength: MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH })(text, 'description');

async function folder(ctx: GraphQLContext, id: number): Promise<ChannelFolderType> {
  const found = (await listFolders(ctx.deps, true)).find((f) => f.id === id)!;
  return ChannelFolderType.from(found);
}

@Resolver(() => ChannelFolderType)
export class ChannelFolderResolver {
  @Authorized()
  @Query(() => [ChannelFolderType])
  async channelFolders(@Arg('includeArchived', { defaultValue: false }) includeArchived: boolean, @Ctx() ctx: GraphQLContext): Promise<ChannelFolderType[]> {
    return (await listFolders(ctx.deps, includeArchived)).map(ChannelFolderType.from);
  }

  @Authorized()
  @Mutation(() => ChannelFolderType, { description: 'Administrators only.' })
  async createChannelFolder(@Arg('name') name: string, @Arg('description') description: string, @Ctx() ctx: GraphQLContext): Promise<ChannelFolderType> {
    const id = await createFolder(ctx.deps, me(ctx), { name: checkName(name), description: checkDescription(description) });
    return folder(ctx, id);
  }

  @Authorized()
  @Mutation(() => ChannelFolderType, { description: 'Administrators only.' })
  async updateChannelFolder(
    @Arg('id', () => Int) id: number,
    @Arg('name', () => String, { nullable: true }) name: string | null,
    @Arg('description', () => String, { nullable: true }) description: string | null,
    @Arg('isArchived', () => Boolean, { nullable: true }) isArchived: boolean | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<ChannelFolderType> {
    await updateFolder(ctx.deps, me(ctx), id, {
      name: name == null ? undefined : checkName(name),
      description: description == null ? undefined : checkDescription(description),
      isArchived: isArchived ?? undefined,
    });
    return folder(ctx, id);
  }

  @Authorized()
  @Mutation(() => [ChannelFolderType], { description: 'Administrators only; lists every folder id in the new order.' })
  async reorderChannelFolders(@Arg('order', () => [Int]) order: number[], @Ctx() ctx: GraphQLContext): Promise<ChannelFolderType[]> {
    await reorderFolders(ctx.deps, me(ctx), order);
    return (await listFolders(ctx.deps, true)).map(ChannelFolderType.from);
  }
}
