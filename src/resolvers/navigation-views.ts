import { Arg, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { findOwnView } from '../core/navigation-views/access';
import { addNavigationView, removeNavigationView, updateNavigationView } from '../core/navigation-views/actions';
import { listNavigationViews } from '../core/navigation-views/queries';
import { navigationViewDict } from '../core/navigation-views/view';
import type { User } from '../core/users/model';
import type { GraphQLContext } from '../schema/context';
import { deleted, DeletedPayload } from '../schema/payloads';
import { NavigationViewType } from '../schema/navigation-views';

const me = (ctx: GraphQLContext) => ctx.user as User;
const load = async (ctx: GraphQLContext, fragment: string) =>
  NavigationViewType.from(navigationViewDict(await findOwnView(ctx.deps.knex, me(ctx), fragment.trim())));

@Resolver(() => NavigationViewType)
export class NavigationViewResolver {
  @Authorized()
  @Query(() => [NavigationViewType], { description: 'Your navigation views.' })
  async navigationViews(@Ctx() ctx: GraphQLContext): Promise<NavigationViewType[]> {
    return (await listNavigationViews(ctx.deps.knex, me(ctx))).map(NavigationViewType.from);
  }

  @Authorized()
  @Mutation(() => NavigationViewType, { description: 'Adds a custom view (it needs a name) or settings for a built-in one.' })
  async addNavigationView(
    @Arg('fragment') fragment: string,
    @Arg('isPinned') isPinned: boolean,
    @Arg('name', () => String, { nullable: true }) name: string | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<NavigationViewType> {
    await addNavigationView(ctx.deps, me(ctx), { fragment, isPinned, name: name ?? undefined });
    return load(ctx, fragment);
  }

  @Authorized()
  @Mutation(() => NavigationViewType)
  async updateNavigationView(
    @Arg('fragment') fragment: string,
    @Arg('isPinned', () => Boolean, { nullable: true }) isPinned: boolean | null,
    @Arg('name', () => String, { nullable: true }) name: string | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<NavigationViewType> {
    await updateNavigationView(ctx.deps, me(ctx), fragment, { isPinned: isPinned ?? undefined, name: name ?? undefined });
    return load(ctx, fragment);
  }

  @Authorized()
  @Mutation(() => DeletedPayload)
  async removeNavigationView(@Arg('fragment') fragment: string, @Ctx() ctx: GraphQLContext): Promise<DeletedPayload> {
    await removeNavigationView(ctx.deps, me(ctx), fragment);
    return deleted(fragment);
  }
}
