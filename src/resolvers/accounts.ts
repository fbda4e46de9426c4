import { Arg, Authorized, Ctx, Mutation, Resolver } from 'type-graphql';
import { deactivateOwnAccount } from '../core/accounts/leave';
import { requestPasswordReset } from '../core/accounts/password-reset';
import { getUserForViewer } from '../core/users/queries';
import type { User } from '../core/users/model';
import { PasswordResetRequest } from '../schema/accounts';
import type { GraphQLContext } from '../schema/context';
import { UserType } from '../schema/user';

const me = (ctx: GraphQLContext) => ctx.user as User;

@Resolver()
export class AccountResolver {
  @Authorized()
  @Mutation(() => UserType, { description: 'Leaves the organization (DELETE /users/me); the only owner cannot.' })
  async deactivateOwnAccount(@Ctx() ctx: GraphQLContext): Promise<UserType> {
    await deactivateOwnAccount(ctx.deps, me(ctx));
    return UserType.from(await getUserForViewer(ctx.deps, me(ctx), me(ctx).id, { clientGravatar: false, includeCustomProfileFields: false }));
  }

  @Mutation(() => PasswordResetRequest, { description: 'Sends a password-reset link to the address if it has an account; needs no authentication.' })
  async requestPasswordReset(@Arg('email') email: string, @Ctx() ctx: GraphQLContext): Promise<PasswordResetRequest> {
    await requestPasswordReset(ctx.deps, email, ctx.address ?? 'unknown');
    return Object.assign(new PasswordResetRequest(), { email: email.trim() });
  }
}
