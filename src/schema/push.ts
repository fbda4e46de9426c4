import { GraphQLSafeInt } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';

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

@ObjectType('RegisterPushDevicePayload', { description: 'The device registered for end-to-end-encrypted push notifications.' })
export class RegisterPushDevicePayload {
  @Field({ description: '"fcm" or "apns".' }) tokenKind!: string;
  @Field(() => GraphQLSafeInt, { description: 'The push account the device now stands for (an earlier device of it is replaced).' })
  pushAccountId!: number;
}

@ObjectType('ClientDevicePayload', { description: 'A client device just registered (POST /register_client_device).' })
export class ClientDevicePayload {
  @Field(() => Int, { description: 'The id the app keeps for this install, to name it when it signs out.' }) deviceId!: number;
}
