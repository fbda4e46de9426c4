import { Arg, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { messagesMatchingNarrow } from '../core/messages/matches-narrow';
import { readReceipts } from '../core/messages/read-receipts';
import { sendEditMessageTyping } from '../core/messages/edit-typing';
import { deleteTopic } from '../core/messages/delete-topic';
import { requireAdmin } from '../core/users/access';
import { errors } from '../errors';
import type { User } from '../core/users/model';
import type { GraphQLContext } from '../schema/context';
import { DeleteTopicPayload, EditMessageTypingPayload, NarrowMatchType } from '../schema/message-extras';
import { NarrowTermInput } from '../schema/messages';
import { narrowTerms } from './messages';

const me = (ctx: GraphQLContext) => ctx.user as User;

/** Read receipts, narrow matches, edit typing and topic deletion (REST: routes under /messages and /streams). */
@Resolver()
export class MessageExtrasResolver {
  @Authorized()
  @Query(() => [NarrowMatchType], { description: 'Of the given messages you received, those matching the narrow (REST: GET /messages/matches_narrow).' })
  async messagesMatchingNarrow(
    @Arg('messageIds', () => [Int]) messageIds: number[],
    @Arg('narrow', () => [NarrowTermInput]) narrow: NarrowTermInput[],
    @Ctx() ctx: GraphQLContext,
  ): Promise<NarrowMatchType[]> {
    const found = await messagesMatchingNarrow(ctx.deps, me(ctx), messageIds, narrowTerms(narrow));
    return Object.entries(found).map(([id, match]) =>
      Object.assign(new NarrowMatchType(), { id: Number(id), matchContent: match.match_content, matchTopic: match.match_subject }),
    );
  }

  @Authorized()
  @Query(() => [Int], { description: 'Who has read a message (REST: GET /messages/{id}/read_receipts).' })
  async readReceipts(@Arg('messageId', () => Int) messageId: number, @Ctx() ctx: GraphQLContext): Promise<number[]> {
    return readReceipts(ctx.deps, me(ctx), messageId);
  }

  @Authorized()
  @Mutation(() => EditMessageTypingPayload, {
    description: 'Says you started or stopped editing a message: op is start or stop (REST: POST /messages/{id}/typing).',
  })
  async setEditMessageTyping(
    @Arg('messageId', () => Int) messageId: number,
    @Arg('op') op: string,
    @Ctx() ctx: GraphQLContext,
  ): Promise<EditMessageTypingPayload> {
    if (op !== 'start' && op !== 'stop') throw errors.badRequest('Invalid op');
    await sendEditMessageTyping(ctx.deps, me(ctx), messageId, op);
    return Object.assign(new EditMessageTypingPayload(), { messageId, op });
  }

  @Authorized()
  @Mutation(() => DeleteTopicPayload, {
    description: "Deletes a topic's messages (administrators; REST: POST /streams/{id}/delete_topic). Not complete: call again.",
  })
  async deleteTopic(@Arg('streamId', () => Int) streamId: number, @Arg('topic') topic: string, @Ctx() ctx: GraphQLContext): Promise<DeleteTopicPayload> {
    requireAdmin(me(ctx));
    const { complete } = await deleteTopic(ctx.deps, me(ctx), streamId, topic);
    return Object.assign(new DeleteTopicPayload(), { streamId, topic, complete });
  }
}
