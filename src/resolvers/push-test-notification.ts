import { Arg, Authorized, Ctx, Mutation, Resolver } from 'type-graphql';
import { sendLegacyTestNotification } from '../core/push/legacy-test-notification';
import type { User } from '../core/users/model';
import type { GraphQLContext } from '../schema/context';
import { TestPushNotificationPayload } from '../schema/push-test-notification';

@Resolver()
export class PushTestNotificationResolver {
  @Authorized()
  @Mutation(() => TestPushNotificationPayload, {
    description: 'Sends a test notification to your registered device tokens, or to the one given (REST: POST /mobile_push/test_notification).',
  })
  async sendTestPushNotification(
    @Arg('token', () => String, { nullable: true }) token: string | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<TestPushNotificationPayload> {
    const devices = await sendLegacyTestNotification(ctx.deps, ctx.user as User, token ?? undefined);
    return Object.assign(new TestPushNotificationPayload(), { devices });
  }
}
