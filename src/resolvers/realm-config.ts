import { Arg, Args, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { deactivateRealmEmoji } from '../core/emoji/actions';
import { addLinkifier, removeLinkifier, reorderLinkifiers, updateLinkifier } from '../core/linkifiers/actions';
import { listLinkifiers } from '../core/linkifiers/queries';
import { addPlayground, removePlayground } from '../core/playgrounds/actions';
import { listPlaygrounds } from '../core/playgrounds/queries';
import type { User } from '../core/users/model';
import type { GraphQLContext } from '../schema/context';
import { deleted, DeletedPayload } from '../schema/payloads';
import { CodePlaygroundType, LinkifierArgs, LinkifierPayload, LinkifiersPayload, LinkifierType } from '../schema/realm-config';

const me = (ctx: GraphQLContext) => ctx.user as User;

/** Organization configuration: linkifiers, code playgrounds and custom emoji removal, as in REST. */
@Resolver()
export class RealmConfigResolver {
  @Authorized()
  @Query(() => [LinkifierType], { description: 'The linkifiers, in the order they apply (GET /realm/linkifiers).' })
  async linkifiers(@Ctx() ctx: GraphQLContext): Promise<LinkifierType[]> {
    return (await listLinkifiers(ctx.deps.knex, ctx.deps.realmId)).map(LinkifierType.from);
  }

  @Authorized()
  @Mutation(() => Int, { description: 'Adds a linkifier, applied after the others; returns its id (administrators).' })
  async addLinkifier(@Args() args: LinkifierArgs, @Ctx() ctx: GraphQLContext): Promise<number> {
    return addLinkifier(ctx.deps, me(ctx), args.input());
  }

  @Authorized()
  @Mutation(() => LinkifierPayload, {
    description: "Replaces a linkifier's pattern and template; the reverse fields left out stay, an empty one clears (administrators).",
  })
  async updateLinkifier(@Arg('id', () => Int) id: number, @Args() args: LinkifierArgs, @Ctx() ctx: GraphQLContext): Promise<LinkifierPayload> {
    await updateLinkifier(ctx.deps, me(ctx), id, args.input());
    const linkifier = (await listLinkifiers(ctx.deps.knex, ctx.deps.realmId)).find((l) => l.id === id)!;
    return Object.assign(new LinkifierPayload(), { linkifier: LinkifierType.from(linkifier) });
  }

  @Authorized()
  @Mutation(() => DeletedPayload, { description: 'Removes a linkifier (administrators).' })
  async removeLinkifier(@Arg('id', () => Int) id: number, @Ctx() ctx: GraphQLContext): Promise<DeletedPayload> {
    await removeLinkifier(ctx.deps, me(ctx), id);
    return deleted(id);
  }

  @Authorized()
  @Mutation(() => LinkifiersPayload, { description: 'Sets the order linkifiers apply in: every id once (administrators).' })
  async reorderLinkifiers(@Arg('orderedLinkifierIds', () => [Int]) ids: number[], @Ctx() ctx: GraphQLContext): Promise<LinkifiersPayload> {
    await reorderLinkifiers(ctx.deps, me(ctx), ids);
    return Object.assign(new LinkifiersPayload(), { linkifiers: (await listLinkifiers(ctx.deps.knex, ctx.deps.realmId)).map(LinkifierType.from) });
  }

  @Authorized()
  @Query(() => [CodePlaygroundType], { description: "The organization's code playgrounds." })
  async codePlaygrounds(@Ctx() ctx: GraphQLContext): Promise<CodePlaygroundType[]> {
    return (await listPlaygrounds(ctx.deps.knex, ctx.deps.realmId)).map(CodePlaygroundType.from);
  }

  @Authorized()
  @Mutation(() => Int, { description: 'Adds a code playground; returns its id (administrators).' })
  async addCodePlayground(
    @Arg('name') name: string,
    @Arg('pygmentsLanguage') pygmentsLanguage: string,
    @Arg('urlTemplate') urlTemplate: string,
    @Ctx() ctx: GraphQLContext,
  ): Promise<number> {
    return addPlayground(ctx.deps, me(ctx), { name, pygmentsLanguage, urlTemplate });
  }

  @Authorized()
  @Mutation(() => DeletedPayload, { description: 'Removes a code playground (administrators).' })
  async removeCodePlayground(@Arg('id', () => Int) id: number, @Ctx() ctx: GraphQLContext): Promise<DeletedPayload> {
    await removePlayground(ctx.deps, me(ctx), id);
    return deleted(id);
  }

  @Authorized()
  @Mutation(() => DeletedPayload, { description: 'Deactivates a custom emoji: administrators any, others their own (DELETE /realm/emoji/{name}).' })
  async deactivateCustomEmoji(@Arg('name') name: string, @Ctx() ctx: GraphQLContext): Promise<DeletedPayload> {
    await deactivateRealmEmoji(ctx.deps, me(ctx), name);
    return deleted(name);
  }
}
