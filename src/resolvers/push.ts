import { GraphQLSafeInt } from 'graphql-scalars';
import { Arg, Authorized, Ctx, Int, Mutation, Resolver } from 'type-graphql';
import { registerClientDevice, removeClientDevice } from '../core/devices/actions';
import { ClientDevice, deviceInfo, TOKEN_KINDS, TokenKind } from '../core/devices/model';
import { registerDevicePush } from '../core/push/actions';
import { sendE2eeTestNotification } from '../core/push/test-notification';
import { addDeviceToken, removeDeviceToken } from '../core/push/tokens';
import type { User } from '../core/users/model';
import { errors } from '../errors';
import type { GraphQLContext } from '../schema/context';
import { deleted, DeletedPayload } from '../schema/payloads';
import { ClientDevicePayload, ClientDeviceType, deviceTokenPayload, PushDeviceTokenPayload } from '../schema/push';

@Resolver()
export class PushResolver {
  @Authorized()
  @Mutation(() => ClientDeviceType, {
    description:
      "Registers one of your client devices for end-to-end-encrypted push notifications, or rotates its push key or token (POST /mobile_push/register): the push key fields, the token fields, or both. Answers the device's push registration as it now stands.",
  })
  async registerPushDevice(
    @Arg('deviceId', () => Int) deviceId: number,
    @Arg('pushKey', () => String, {
      nullable: true,
      description: 'Base64 of the key the notifications are encrypted with (a 0x31 tag byte, then a 32-byte secretbox key).',
    })
    pushKey: string | null,
    @Arg('pushKeyId', () => GraphQLSafeInt, { nullable: true, description: 'The id the app knows the key by (an unsigned 32-bit integer).' })
    pushKeyId: number | null,
    @Arg('tokenKind', () => String, { nullable: true, description: '"fcm" or "apns".' }) tokenKind: string | null,
    @Arg('tokenId', () => String, { nullable: true, description: "Base64 of the 8-byte id of the app's FCM/APNs token." }) tokenId: string | null,
    @Arg('bouncerPublicKey', () => String, { nullable: true }) bouncerPublicKey: string | null,
    @Arg('encryptedPushRegistration', () => String, { nullable: true }) encryptedPushRegistration: string | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<ClientDeviceType> {
    if (tokenKind !== null && !(TOKEN_KINDS as readonly string[]).includes(tokenKind)) throw errors.badRequest('Invalid token_kind');
    const user = ctx.user as User;
    await registerDevicePush(ctx.deps, user, {
      deviceId,
      pushKey: pushKey ?? undefined,
      pushKeyId: pushKeyId ?? undefined,
      tokenKind: (tokenKind ?? undefined) as TokenKind | undefined,
      tokenId: tokenId ?? undefined,
      bouncerPublicKey: bouncerPublicKey ?? undefined,
      encryptedPushRegistration: encryptedPushRegistration ?? undefined,
    });
    const row = await ClientDevice.query(ctx.deps.knex).findOne({ id: deviceId, user_id: user.id });
    return ClientDeviceType.from(deviceId, deviceInfo(row));
  }

  @Authorized()
  @Mutation(() => Boolean, {
    description: 'Sends an end-to-end-encrypted test notification to one of your push devices, or all (POST /mobile_push/e2ee/test_notification).',
  })
  async sendE2eeTestNotification(@Arg('deviceId', () => Int, { nullable: true }) deviceId: number | null, @Ctx() ctx: GraphQLContext): Promise<boolean> {
    await sendE2eeTestNotification(ctx.deps, ctx.user as User, deviceId ?? undefined);
    return true;
  }

  @Authorized()
  @Mutation(() => ClientDevicePayload, { description: 'Registers this signed-in app install as a client device (POST /register_client_device).' })
  async registerClientDevice(@Ctx() ctx: GraphQLContext): Promise<ClientDevicePayload> {
    return Object.assign(new ClientDevicePayload(), { deviceId: await registerClientDevice(ctx.deps, ctx.user as User) });
  }

  @Authorized()
  @Mutation(() => DeletedPayload, { description: 'Removes one of your client devices, at sign-out (POST /remove_client_device); answers its id.' })
  async removeClientDevice(@Arg('deviceId', () => Int) deviceId: number, @Ctx() ctx: GraphQLContext): Promise<DeletedPayload> {
    await removeClientDevice(ctx.deps, ctx.user as User, deviceId);
    return deleted(deviceId);
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
