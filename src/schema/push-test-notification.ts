import { Field, Int, ObjectType } from 'type-graphql';

@ObjectType('TestPushNotificationPayload')
export class TestPushNotificationPayload {
  @Field(() => Int, { description: 'How many of your device tokens the test notification went to.' }) devices!: number;
}
