import { Arg, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { createUser, deactivateUser, reactivateUser, regenerateApiKey, updateUser } from '../core/users/actions';
import { loginWithPassword } from '../core/users/authenticate';
import { getUserForViewer, listUsersForViewer } from '../core/users/queries';
import type { User } from '../core/users/model';
import type { GraphQLContext } from '../schema/context';
import { updateUserProfileData } from '../core/profile-fields/actions';
import { ApiKeyResult, CreateUserInput, DeactivationActionsInput, UpdateUserInput, UserType } from '../schema/user';

const me = (ctx: GraphQLContext) => ctx.user as User;
const view = { clientGravatar: false, includeCustomProfileFields: false };

@Resolver(() => UserType)
export class UserResolver {
  @Authorized()
  @Query(() => UserType, { description: 'The authenticated account.' })
  async me(@Ctx() ctx: GraphQLContext): Promise<UserType> {
    return UserType.from(await getUserForViewer(ctx.deps, me(ctx), me(ctx).id, view));
  }

  @Authorized()
  @Query(() => UserType)
  async user(@Arg('id', () => Int) id: number, @Ctx() ctx: GraphQLContext): Promise<UserType> {
    return UserType.from(await getUserForViewer(ctx.deps, me(ctx), id, view));
  }

  @Authorized()
  @Query(() => [UserType], { description: 'Every account of the organization, active or not.' })
  async users(@Ctx() ctx: GraphQLContext): Promise<UserType[]> {
    return (await listUsersForViewer(ctx.deps, me(ctx), view)).map(UserType.from);
  }

  @Authorized()
  @Mutation(() => UserType, { description: 'Administrators with the can_create_users permission only.' })
  async createUser(@Arg('input') input: CreateUserInput, @Ctx() ctx: GraphQLContext): Promise<UserType> {
    const { user } = await createUser(ctx.deps, me(ctx), { ...input, joining: true });
    return UserType.from(await getUserForViewer(ctx.deps, me(ctx), user.id, view));
  }

  @Authorized()
  @Mutation(() => UserType)
  async updateUser(@Arg('id', () => Int) id: number, @Arg('input') input: UpdateUserInput, @Ctx() ctx: GraphQLContext): Promise<UserType> {
    await updateUser(ctx.deps, me(ctx), id, { fullName: input.fullName ?? undefined, role: input.role ?? undefined });
    if (input.profileData) {
      const data = input.profileData.map((d) => ({ id: d.fieldId, value: d.userIds ?? d.value ?? null }));
      await updateUserProfileData(ctx.deps, me(ctx), id, data);
    }
    return UserType.from(await getUserForViewer(ctx.deps, me(ctx), id, view));
  }

  @Authorized()
  @Mutation(() => UserType)
  async deactivateUser(
    @Arg('id', () => Int) id: number,
    @Arg('actions', () => DeactivationActionsInput, { nullable: true }) actions: DeactivationActionsInput | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<UserType> {
    await deactivateUser(ctx.deps, me(ctx), id, {
      deleteProfile: actions?.deleteProfile ?? false,
      deletePublicChannelMessages: actions?.deletePublicChannelMessages ?? false,
      deletePrivateChannelMessages: actions?.deletePrivateChannelMessages ?? false,
      deleteDirectMessages: actions?.deleteDirectMessages ?? false,
    });
    return UserType.from(await getUserForViewer(ctx.deps, me(ctx), id, view));
  }

  @Authorized()
  @Mutation(() => UserType)
  async reactivateUser(@Arg('id', () => Int) id: number, @Ctx() ctx: GraphQLContext): Promise<UserType> {
    await reactivateUser(ctx.deps, me(ctx), id);
    return UserType.from(await getUserForViewer(ctx.deps, me(ctx), id, view));
  }

  @Authorized()
  @Mutation(() => String, { description: 'Replaces all of your API keys with a new one.' })
  async regenerateApiKey(@Ctx() ctx: GraphQLContext): Promise<string> {
    return regenerateApiKey(ctx.deps, me(ctx).id);
  }

  @Mutation(() => ApiKeyResult, { description: 'Exchanges an email and password for an API key; needs no authentication.' })
  async fetchApiKey(@Arg('username') username: string, @Arg('password') password: string, @Ctx() ctx: GraphQLContext): Promise<ApiKeyResult> {
    const result = await loginWithPassword(ctx.deps, username, password, { address: ctx.address ?? '', userAgent: ctx.userAgent ?? '' });
    return Object.assign(new ApiKeyResult(), { apiKey: result.api_key, email: result.email, userId: result.user_id });
  }
}
