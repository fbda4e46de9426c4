import { Arg, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { createDrafts, deleteDraft, editDraft } from '../core/drafts/actions';
import { listDrafts } from '../core/drafts/queries';
import { parseDraft } from '../core/drafts/validation';
import type { User } from '../core/users/model';
import type { GraphQLContext } from '../schema/context';
import { deleted, DeletedPayload } from '../schema/payloads';
import { DraftInput, DraftType } from '../schema/drafts';

const me = (ctx: GraphQLContext) => ctx.user as User;

/** GraphQL input goes through the same checks as REST's JSON drafts. */
function submitted(input: DraftInput, name: string) {
  const { timestamp, ...rest } = input;
  return parseDraft(timestamp === null || timestamp === undefined ? { ...rest } : { ...rest, timestamp }, name);
}

@Resolver(() => DraftType)
export class DraftResolver {
  @Authorized()
  @Query(() => [DraftType], { description: 'Your drafts, oldest edit first.' })
  async drafts(@Ctx() ctx: GraphQLContext): Promise<DraftType[]> {
    return (await listDrafts(ctx.deps, me(ctx))).map(DraftType.from);
  }

  @Authorized()
  @Mutation(() => [DraftType], { description: 'Creates drafts; they come back in the order given.' })
  async createDrafts(@Arg('drafts', () => [DraftInput]) drafts: DraftInput[], @Ctx() ctx: GraphQLContext): Promise<DraftType[]> {
    const ids = await createDrafts(
      ctx.deps,
      me(ctx),
      drafts.map((d, i) => submitted(d, `drafts[${i}]`)),
    );
    const byId = new Map((await listDrafts(ctx.deps, me(ctx))).map((d) => [d.id, d]));
    return ids.map((id) => DraftType.from(byId.get(id)!));
  }

  @Authorized()
  @Mutation(() => DraftType, { description: 'Replaces one of your drafts.' })
  async editDraft(@Arg('id', () => Int) id: number, @Arg('draft', () => DraftInput) draft: DraftInput, @Ctx() ctx: GraphQLContext): Promise<DraftType> {
    await editDraft(ctx.deps, me(ctx), id, submitted(draft, 'draft'));
    return DraftType.from((await listDrafts(ctx.deps, me(ctx))).find((d) => d.id === id)!);
  }

  @Authorized()
  @Mutation(() => DeletedPayload)
  async deleteDraft(@Arg('id', () => Int) id: number, @Ctx() ctx: GraphQLContext): Promise<DeletedPayload> {
    await deleteDraft(ctx.deps, me(ctx), id);
    return deleted(id);
  }
}
