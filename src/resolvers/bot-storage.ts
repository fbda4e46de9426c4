import { Arg, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { removeBotStorage, updateBotStorage } from '../core/bot-storage/actions';
import { getBotStorage } from '../core/bot-storage/queries';
import { parseStorage } from '../core/bot-storage/validation';
import type { User } from '../core/users/model';
import { BotStorageEntryInput, BotStorageEntryType } from '../schema/bot-storage';
import type { GraphQLContext } from '../schema/context';

const me = (ctx: GraphQLContext) => ctx.user as User;

@Resolver(() => BotStorageEntryType)
export class BotStorageResolver {
  @Authorized()
  @Query(() => [BotStorageEntryType], {
    description: 'Your bot storage: the given keys in that order (any missing one is an error), or every entry when keys are left out.',
  })
  async botStorage(
    @Arg('keys', () => [String], { nullable: true }) keys: string[] | null | undefined,
    @Ctx() ctx: GraphQLContext,
  ): Promise<BotStorageEntryType[]> {
    return [...(await getBotStorage(ctx.deps, me(ctx), keys ?? undefined))].map(BotStorageEntryType.from);
  }

  @Authorized()
  @Mutation(() => [BotStorageEntryType], {
    description: 'Stores the entries (a key given twice keeps its last value), unless your storage would pass its size limit; answers what was stored.',
  })
  async updateBotStorage(
    @Arg('entries', () => [BotStorageEntryInput]) entries: BotStorageEntryInput[],
    @Ctx() ctx: GraphQLContext,
  ): Promise<BotStorageEntryType[]> {
    // The same checks as REST's `storage` dict.
    const storage = parseStorage(Object.fromEntries(entries.map((e) => [e.key, e.value])), 'entries');
    await updateBotStorage(ctx.deps, me(ctx), storage);
    return [...storage].map(BotStorageEntryType.from);
  }

  @Authorized()
  @Mutation(() => [String], {
    description: 'Removes the given keys (every key when left out), or nothing when one of them is not stored; answers the keys removed.',
  })
  async removeBotStorage(@Arg('keys', () => [String], { nullable: true }) keys: string[] | null | undefined, @Ctx() ctx: GraphQLContext): Promise<string[]> {
    return [...(await removeBotStorage(ctx.deps, me(ctx), keys ?? undefined))];
  }
}
