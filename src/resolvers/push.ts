import { GraphQLSafeInt } from 'graphql-scalars';
import { Arg, Authorized, Ctx, Mutation, Resolver } from 'type-graphql';
import { registerPushDevice } from '../core/push/actions';
import { TOKEN_KINDS, TokenKind } from '../core/push/model';
import type { User } from '../core/users/model';
import { errors } from '../errors';
import type { GraphQLContext } from '../schema/context';

@Resolver()
export class PushResolver {
  @Authorized()
  @Mutation(() => Boolean, {
    description: 'Registers a device for end-to-end-encrypted push notifications (POST /mobile_push/register).',
  })
  async registerPushDevice(
    @Arg('tokenKind', { description: '"fcm" or "apns".' }) tokenKind: string,
    @Arg('pushAccountId', () => GraphQLSafeInt) pushAccountId: number,
    @Arg('pushPublicKey') pushPublicKey: string,
    @Arg('bouncerPublicKey') bouncerPublicKey: string,
    @Arg('encryptedPushRegistration') encryptedPushRegistration: string,
    @Ctx() ctx: GraphQLContext,
  ): Promise<boolean> {
    if (!(TOKEN_KINDS as readonly string[]).includes(tokenKind)) throw errors.badRequest('Invalid token_kind');
    await registerPushDevice(ctx.deps, ctx.user as User, {
      tokenKind: tokenKind as TokenKind,
      pushAccountId,
      pushPublicKey,
      bouncerPublicKey,
      encryptedPushRegistration,
    });
    return true;
  }
}
