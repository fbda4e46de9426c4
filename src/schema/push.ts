import { GraphQLSafeInt } from 'graphql-scalars';
import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import type { ClientDeviceInfo } from '../core/devices/model';

@ObjectType('PushDeviceToken', { description: 'A device token push notifications are sent to.' })
export class PushDeviceToken {
  @Field(() => ID, { description: 'The token itself, unique per user and kind.' }) id!: string;
  @Field({ description: '"apns" or "fcm".' }) kind!: string;
  @Field(() => String, { nullable: true, description: 'The iOS app id (APNs tokens).' }) appid!: string | null;
}

@ObjectType('PushDeviceTokenPayload', { description: 'The device token as it is stored after the change.' })
export class PushDeviceTokenPayload {
  @Field(() => PushDeviceToken) deviceToken!: PushDeviceToken;
}

export const deviceTokenPayload = (kind: string, token: string, appid: string | null): PushDeviceTokenPayload =>
  Object.assign(new PushDeviceTokenPayload(), { deviceToken: Object.assign(new PushDeviceToken(), { id: token, kind, appid }) });

@ObjectType('ClientDevice', { description: "One of your client devices and its push registration (register's `devices`)." })
export class ClientDeviceType {
  @Field(() => Int) deviceId!: number;
  @Field(() => GraphQLSafeInt, { nullable: true, description: 'The id of the push key notifications are encrypted with.' }) pushKeyId!: number | null;
  @Field(() => String, { nullable: true, description: 'The id of the FCM/APNs token the push service has registered.' }) pushTokenId!: string | null;
  @Field(() => String, { nullable: true, description: 'The id of a token being registered with the push service.' })
  pendingPushTokenId!: string | null;
  @Field(() => Float, { nullable: true, description: 'When the pending token was last set, in UNIX seconds.' })
  pushTokenLastUpdatedTimestamp!: number | null;
  @Field(() => String, { nullable: true, description: 'Why the push service refused the registration (a Zulip error code).' })
  pushRegistrationErrorCode!: string | null;

  static from(deviceId: number, info: ClientDeviceInfo): ClientDeviceType {
    return Object.assign(new ClientDeviceType(), {
      deviceId,
      pushKeyId: info.push_key_id,
      pushTokenId: info.push_token_id,
      pendingPushTokenId: info.pending_push_token_id,
      pushTokenLastUpdatedTimestamp: info.push_token_last_updated_timestamp,
      pushRegistrationErrorCode: info.push_registration_error_code,
    });
  }
}

@ObjectType('ClientDevicePayload', { description: 'A client device just registered (POST /register_client_device).' })
export class ClientDevicePayload {
  @Field(() => Int, { description: 'The id the app keeps for this install, to name it when it signs out.' }) deviceId!: number;
}
