import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import { errors } from '../errors';
import type { GraphQLContext } from '../schema/context';
import { ChannelType } from '../schema/channels';
import { UserGroupType } from '../schema/groups';
import { loaders } from '../schema/loaders';
import { MessageReactionType, MessageType } from '../schema/messages';
import { UserType } from '../schema/user';

/**
 * Object links between entities, batched per operation (see schema/loaders.ts). The numeric ids
 * stay beside them for clients that want only the id.
 */
async function userLink(ctx: GraphQLContext, id: number): Promise<UserType> {
  const dict = await loaders(ctx).users.load(id);
  if (!dict) throw errors.noSuchUser();
  return UserType.from(dict);
}

@Resolver(() => MessageType)
export class MessageLinksResolver {
  @FieldResolver(() => UserType, { description: 'Who sent the message.' })
  sender(@Root() message: MessageType, @Ctx() ctx: GraphQLContext): Promise<UserType> {
    return userLink(ctx, message.senderId);
  }

  @FieldResolver(() => ChannelType, { nullable: true, description: 'The channel of a channel message; null for direct messages.' })
  async channel(@Root() message: MessageType, @Ctx() ctx: GraphQLContext): Promise<ChannelType | null> {
    if (message.streamId === null) return null;
    const dict = await loaders(ctx).channels.load(message.streamId);
    return dict && ChannelType.from(dict);
  }
}

@Resolver(() => MessageReactionType)
export class ReactionLinksResolver {
  @FieldResolver(() => UserType, { description: 'Who reacted.' })
  user(@Root() reaction: MessageReactionType, @Ctx() ctx: GraphQLContext): Promise<UserType> {
    return userLink(ctx, reaction.userId);
  }
}

@Resolver(() => UserGroupType)
export class UserGroupLinksResolver {
  @FieldResolver(() => [UserType], { description: 'Active direct members.' })
  members(@Root() group: UserGroupType, @Ctx() ctx: GraphQLContext): Promise<UserType[]> {
    return Promise.all(group.memberIds.map((id) => userLink(ctx, id)));
  }
}

@Resolver(() => UserType)
export class UserLinksResolver {
  @FieldResolver(() => UserType, { nullable: true, description: 'The owner of a bot; null for humans and ownerless bots.' })
  async botOwner(@Root() user: UserType, @Ctx() ctx: GraphQLContext): Promise<UserType | null> {
    if (user.botOwnerId === null) return null;
    const dict = await loaders(ctx).users.load(user.botOwnerId);
    return dict && UserType.from(dict);
  }
}
