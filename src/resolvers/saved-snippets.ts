import { Arg, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { findOwnSnippet } from '../core/saved-snippets/access';
import { createSavedSnippet, deleteSavedSnippet, editSavedSnippet } from '../core/saved-snippets/actions';
import { listSavedSnippets } from '../core/saved-snippets/queries';
import { savedSnippetDict } from '../core/saved-snippets/view';
import type { User } from '../core/users/model';
import type { GraphQLContext } from '../schema/context';
import { deleted, DeletedPayload } from '../schema/payloads';
import { SavedSnippetType } from '../schema/saved-snippets';

const me = (ctx: GraphQLContext) => ctx.user as User;
const load = async (ctx: GraphQLContext, id: number) => SavedSnippetType.from(savedSnippetDict(await findOwnSnippet(ctx.deps.knex, me(ctx), id)));

@Resolver(() => SavedSnippetType)
export class SavedSnippetResolver {
  @Authorized()
  @Query(() => [SavedSnippetType], { description: 'Your saved snippets.' })
  async savedSnippets(@Ctx() ctx: GraphQLContext): Promise<SavedSnippetType[]> {
    return (await listSavedSnippets(ctx.deps.knex, me(ctx))).map(SavedSnippetType.from);
  }

  @Authorized()
  @Mutation(() => SavedSnippetType)
  async createSavedSnippet(@Arg('title') title: string, @Arg('content') content: string, @Ctx() ctx: GraphQLContext): Promise<SavedSnippetType> {
    return load(ctx, await createSavedSnippet(ctx.deps, me(ctx), { title, content }));
  }

  @Authorized()
  @Mutation(() => SavedSnippetType, { description: 'Changes the title and/or content of one of your snippets.' })
  async editSavedSnippet(
    @Arg('id', () => Int) id: number,
    @Arg('title', () => String, { nullable: true }) title: string | null,
    @Arg('content', () => String, { nullable: true }) content: string | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<SavedSnippetType> {
    await editSavedSnippet(ctx.deps, me(ctx), id, { title: title ?? undefined, content: content ?? undefined });
    return load(ctx, id);
  }

  @Authorized()
  @Mutation(() => DeletedPayload)
  async deleteSavedSnippet(@Arg('id', () => Int) id: number, @Ctx() ctx: GraphQLContext): Promise<DeletedPayload> {
    await deleteSavedSnippet(ctx.deps, me(ctx), id);
    return deleted(id);
  }
}
