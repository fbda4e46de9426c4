import { Arg, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { updateUser } from '../core/users/actions';
import { updateUserProfileData } from '../core/profile-fields/actions';
import { getUserForViewer, userIdForKey } from '../core/users/queries';
import type { User } from '../core/users/model';
import type { GraphQLContext } from '../schema/context';
import { UpdateUserInput, UserType } from '../schema/user';

const me = (ctx: GraphQLContext) => ctx.user as User;
const view = { clientGravatar: false, includeCustomProfileFields: false };

/** Users named by address, as REST's GET and PATCH /users/{email}. */
@Resolver(() => UserType)
export class UserByEmailResolver {
  @Authorized()
  @Query(() => UserType, { description: 'A user by address: their real one if you may see it, else their placeholder (REST: GET /users/{email}).' })
  async userByEmail(@Arg('email') email: string, @Ctx() ctx: GraphQLContext): Promise<UserType> {
    return UserType.from(await getUserForViewer(ctx.deps, me(ctx), email, view));
  }

  @Authorized()
  @Mutation(() => UserType, { description: 'Administrators: changes a user named by address (REST: PATCH /users/{email}).' })
  async updateUserByEmail(@Arg('email') email: string, @Arg('input') input: UpdateUserInput, @Ctx() ctx: GraphQLContext): Promise<UserType> {
    const id = await userIdForKey(ctx.deps, me(ctx), email);
    await updateUser(ctx.deps, me(ctx), id, { fullName: input.fullName ?? undefined, role: input.role ?? undefined });
    if (input.profileData) {
      const data = input.profileData.map((d) => ({ id: d.fieldId, value: d.userIds ?? d.value ?? null }));
      await updateUserProfileData(ctx.deps, me(ctx), id, data);
    }
    return UserType.from(await getUserForViewer(ctx.deps, me(ctx), id, view));
  }
}
