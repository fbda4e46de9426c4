import { Arg, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { channelLinkResolver } from '../core/channels/links';
import { listRealmEmoji } from '../core/emoji/queries';
import { renderMessagePreview } from '../core/markdown';
import type { User } from '../core/users/model';
import type { GraphQLContext } from '../schema/context';
import { RealmEmojiType } from '../schema/emoji';

const me = (ctx: GraphQLContext) => ctx.user as User;

/** Channel links resolve to the channels the caller can see, as in REST. */
const preview = (ctx: GraphQLContext, content: string) =>
  renderMessagePreview(ctx.deps, me(ctx), content, { resolveChannels: channelLinkResolver(ctx.deps.knex, me(ctx)) });

@Resolver()
export class MarkdownResolver {
  @Authorized()
  @Query(() => String, { name: 'renderMessage', description: 'HTML of message content, as if you sent it now.' })
  async renderMessageQuery(@Arg('content') content: string, @Ctx() ctx: GraphQLContext): Promise<string> {
    return preview(ctx, content);
  }

  @Authorized()
  @Mutation(() => String, { name: 'renderMessage', description: 'Same as the renderMessage query (REST: POST /messages/render).' })
  async renderMessageMutation(@Arg('content') content: string, @Ctx() ctx: GraphQLContext): Promise<string> {
    return preview(ctx, content);
  }

  @Authorized()
  @Query(() => [RealmEmojiType], { description: 'Every custom emoji of the organization, deactivated ones included.' })
  async realmEmoji(@Ctx() ctx: GraphQLContext): Promise<RealmEmojiType[]> {
    return Object.values(await listRealmEmoji(ctx.deps.knex, ctx.deps.realmId)).map(RealmEmojiType.from);
  }
}
