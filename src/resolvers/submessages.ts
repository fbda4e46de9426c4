import { Arg, Authorized, Ctx, Int, Mutation, Resolver } from 'type-graphql';
import { getSingleMessage } from '../core/messages/fetch';
import { addSubmessage } from '../core/submessages/actions';
import type { User } from '../core/users/model';
import type { GraphQLContext } from '../schema/context';
import { MessagePayload, MessageType } from '../schema/messages';

const me = (ctx: GraphQLContext) => ctx.user as User;

@Resolver()
export class SubmessageResolver {
  @Authorized()
  @Mutation(() => MessagePayload, {
    description:
      'Acts on a message\'s widget: content is JSON, e.g. {"type":"vote","key":"canned,0","vote":1} on a poll or {"type":"strike","key":"0,canned"} on a to-do list (REST: POST /submessage).',
  })
  async sendSubmessage(
    @Arg('messageId', () => Int) messageId: number,
    @Arg('content') content: string,
    @Arg('msgType', { defaultValue: 'widget' }) msgType: string,
    @Ctx() ctx: GraphQLContext,
  ): Promise<MessagePayload> {
    await addSubmessage(ctx.deps, me(ctx), { messageId, msgType, content });
    const res = await getSingleMessage(ctx.deps, me(ctx), messageId, { applyMarkdown: true, allowEmptyTopicName: false });
    return Object.assign(new MessagePayload(), { message: MessageType.from(res.message, res.raw_content) });
  }
}
