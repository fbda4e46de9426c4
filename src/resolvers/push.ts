import { GraphQLSafeInt } from 'graphql-scalars';
import { Arg, Authorized, Ctx, Mutation, Resolver } from 'type-graphql';
import { registerPushDevice } from '../core/push/actions';
import { TOKEN_KINDS, TokenKind } from '../core/push/model';
import { addDeviceToken, removeDeviceToken } from '../core/push/tokens';
import type { User } from '../core/users/model';
import { errors } from '../errors';
import type { GraphQLContext } from '../schema/context';
import { deleted, DeletedPayload } from '../schema/payloads';
import { deviceTokenPayload, PushDeviceTokenPayload, RegisterPushDevicePayload } from '../schema/push';

@Resolver()
export class PushResolver {
  @Authorized()
  @Mutation(() => RegisterPushDevicePayload, {
    description: 'Registers a device for end-to-end-encrypted push notifications (POST /mobile_push/register).',
  })
  async registerPushDevice(
    @Arg('tokenKind', { description: '"fcm" or "apns".' }) tokenKind: string,
    @Arg('pushAccountId', () => GraphQLSafeInt) pushAccountId: number,
    @Arg('pushPublicKey') pushPublicKey: string,
    @Arg('bouncerPublicKey') bouncerPublicKey: string,
    @Arg('encryptedPushRegistration') encryptedPushRegistration: string,
    @Ctx() ctx: GraphQLContext,
  ): Promise<RegisterPushDevicePayload> {
    if (!(TOKEN_KINDS as readonly string[]).includes(tokenKind)) throw errors.badRequest('Invalid token_kind');
    await registerPushDevice(ctx.deps, ctx.user as User, {
      tokenKind: tokenKind as TokenKind,
      pushAccountId,
      pushPublicKey,
      bouncerPublicKey,
      encryptedPushRegistration,
    });
    return Object.assign(new RegisterPushDevicePayload(), { tokenKind, pushAccountId });
  }

  @Authorized()
  @Mutation(() => PushDeviceTokenPayload, { description: 'Registers an iOS device token for push notifications (POST /users/me/apns_device_token).' })
  async addApnsDeviceToken(@Arg('token') token: string, @Arg('appid') appid: string, @Ctx() ctx: GraphQLContext): Promise<PushDeviceTokenPayload> {
    await addDeviceToken(ctx.deps, ctx.user as User, 'apns', token, appid);
    return deviceTokenPayload('apns', token, appid);
  }

  @Authorized()
  @Mutation(() => DeletedPayload, { description: 'Forgets an iOS device token (DELETE /users/me/apns_device_token); answers the token.' })
  async removeApnsDeviceToken(@Arg('token') token: string, @Ctx() ctx: GraphQLContext): Promise<DeletedPayload> {
    await removeDeviceToken(ctx.deps, ctx.user as User, 'apns', token);
    return deleted(token);
  }

  @Authorized()
  @Mutation(() => PushDeviceTokenPayload, { description: 'Registers an Android (FCM) registration token (POST /users/me/android_gcm_reg_id).' })
  async addFcmRegistrationToken(@Arg('token') token: string, @Ctx() ctx: GraphQLContext): Promise<PushDeviceTokenPayload> {
    await addDeviceToken(ctx.deps, ctx.user as User, 'fcm', token, null);
    return deviceTokenPayload('fcm', token, null);
  }

  @Authorized()
  @Mutation(() => DeletedPayload, { description: 'Forgets an Android (FCM) registration token (DELETE /users/me/android_gcm_reg_id); answers the token.' })
  async removeFcmRegistrationToken(@Arg('token') token: string, @Ctx() ctx: GraphQLContext): Promise<DeletedPayload> {
    await removeDeviceToken(ctx.deps, ctx.user as User, 'fcm', token);
    return deleted(token);
  }
}
