import { Arg, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { addAlertWords, removeAlertWords } from '../core/alert-words/actions';
import { MAX_ALERT_WORD_LENGTH } from '../core/alert-words/matching';
import { alertWordsOf } from '../core/alert-words/store';
import { muteUser, unmuteUser } from '../core/muted-users/actions';
import { mutedUsersOf } from '../core/muted-users/store';
import { updateStatusForUser, updateUserStatus } from '../core/user-status/actions';
import { getUserStatus } from '../core/user-status/queries';
import { userStatusOf } from '../core/user-status/store';
import type { User } from '../core/users/model';
import { v } from '../validation/validate';
import type { GraphQLContext } from '../schema/context';
import { MutedUserType, OtherUserStatusInput, UserStatusInput, UserStatusType } from '../schema/user-preferences';

const me = (ctx: GraphQLContext) => ctx.user as User;
const orUndefined = <T>(value: T | null | undefined) => (value === null ? undefined : value);

/** User status, muted users and alert words: the same actions as their REST endpoints. */
@Resolver()
export class UserPreferencesResolver {
  @Authorized()
  @Query(() => UserStatusType, { description: "An active human user's status (GET /users/{id}/status)." })
  async userStatus(@Arg('userId', () => Int) userId: number, @Ctx() ctx: GraphQLContext): Promise<UserStatusType> {
    return UserStatusType.from(userId, await getUserStatus(ctx.deps, me(ctx), userId));
  }

  @Authorized()
  @Mutation(() => UserStatusType, { description: 'Changes your status; returns it as it now is.' })
  async updateUserStatus(@Arg('status', () => UserStatusInput) status: UserStatusInput, @Ctx() ctx: GraphQLContext): Promise<UserStatusType> {
    const change = {
      away: orUndefined(status.away),
      statusText: orUndefined(status.statusText),
      emojiName: orUndefined(status.emojiName),
      emojiCode: orUndefined(status.emojiCode),
      reactionType: orUndefined(status.reactionType),
    };
    await updateUserStatus(ctx.deps, me(ctx), change, 'GraphQL');
    return UserStatusType.from(me(ctx).id, await userStatusOf(ctx.deps.knex, me(ctx).id));
  }

  @Authorized()
  @Mutation(() => UserStatusType, { description: "Administrators (and their bots): changes another user's status; returns it as it now is." })
  async updateUserStatusForUser(
    @Arg('userId', () => Int) userId: number,
    @Arg('status', () => OtherUserStatusInput) status: OtherUserStatusInput,
    @Ctx() ctx: GraphQLContext,
  ): Promise<UserStatusType> {
    const change = {
      statusText: orUndefined(status.statusText),
      emojiName: orUndefined(status.emojiName),
      emojiCode: orUndefined(status.emojiCode),
      reactionType: orUndefined(status.reactionType),
    };
    await updateStatusForUser(ctx.deps, me(ctx), userId, change, 'GraphQL');
    return UserStatusType.from(userId, await userStatusOf(ctx.deps.knex, userId));
  }

  @Authorized()
  @Query(() => [MutedUserType], { description: 'The users you muted, oldest first.' })
  async mutedUsers(@Ctx() ctx: GraphQLContext): Promise<MutedUserType[]> {
    return (await mutedUsersOf(ctx.deps.knex, me(ctx).id)).map(MutedUserType.from);
  }

  @Authorized()
  @Mutation(() => [MutedUserType], { description: 'Mutes a user; returns the users you muted.' })
  async muteUser(@Arg('userId', () => Int) userId: number, @Ctx() ctx: GraphQLContext): Promise<MutedUserType[]> {
    await muteUser(ctx.deps, me(ctx), userId);
    return this.mutedUsers(ctx);
  }

  @Authorized()
  @Mutation(() => [MutedUserType], { description: 'Unmutes a user; returns the users you still mute.' })
  async unmuteUser(@Arg('userId', () => Int) userId: number, @Ctx() ctx: GraphQLContext): Promise<MutedUserType[]> {
    await unmuteUser(ctx.deps, me(ctx), userId);
    return this.mutedUsers(ctx);
  }

  @Authorized()
  @Query(() => [String], { description: 'Your alert words, as you wrote them.' })
  async alertWords(@Ctx() ctx: GraphQLContext): Promise<string[]> {
    return alertWordsOf(ctx.deps.knex, me(ctx).id);
  }

  @Authorized()
  @Mutation(() => [String], { description: 'Adds alert words (ignoring case and blanks); returns them all.' })
  async addAlertWords(@Arg('alertWords', () => [String]) words: string[], @Ctx() ctx: GraphQLContext): Promise<string[]> {
    return addAlertWords(ctx.deps, me(ctx), v.list(v.string({ maxLength: MAX_ALERT_WORD_LENGTH }))(words, 'alert_words'));
  }

  @Authorized()
  @Mutation(() => [String], { description: 'Removes alert words (ignoring case); returns those left.' })
  async removeAlertWords(@Arg('alertWords', () => [String]) words: string[], @Ctx() ctx: GraphQLContext): Promise<string[]> {
    return removeAlertWords(ctx.deps, me(ctx), v.list(v.string())(words, 'alert_words'));
  }
}
