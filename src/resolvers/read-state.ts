import { Arg, Authorized, Ctx, Int, Mutation, Resolver } from 'type-graphql';
import { parseAnchor } from '../core/messages/fetch';
import { markAllAsRead, markChannelAsRead, markTopicAsRead, updateMessageFlagsForNarrow } from '../core/messages/flag-actions';
import { sendChannelTyping, sendDirectTyping } from '../core/typing/actions';
import type { User } from '../core/users/model';
import { errors } from '../errors';
import type { GraphQLContext } from '../schema/context';
import { NarrowTermInput } from '../schema/messages';
import { MarkAsReadPayload, NarrowFlagsPayload, TypingPayload } from '../schema/read-state';
import { narrowTerms } from './messages';

const me = (ctx: GraphQLContext) => ctx.user as User;
const done = (complete = true) => Object.assign(new MarkAsReadPayload(), { complete });

/** Mark-as-read in bulk and typing notifications (REST: /mark_*_as_read, /messages/flags/narrow, /typing). */
@Resolver()
export class ReadStateResolver {
  @Authorized()
  @Mutation(() => MarkAsReadPayload, { description: 'Marks every message you received as read (REST: POST /mark_all_as_read).' })
  async markAllAsRead(@Ctx() ctx: GraphQLContext): Promise<MarkAsReadPayload> {
    return done((await markAllAsRead(ctx.deps, me(ctx))).complete);
  }

  @Authorized()
  @Mutation(() => MarkAsReadPayload, { description: 'Marks the messages of a channel as read (REST: POST /mark_stream_as_read).' })
  async markChannelAsRead(@Arg('streamId', () => Int) streamId: number, @Ctx() ctx: GraphQLContext): Promise<MarkAsReadPayload> {
    await markChannelAsRead(ctx.deps, me(ctx), streamId);
    return done();
  }

  @Authorized()
  @Mutation(() => MarkAsReadPayload, { description: 'Marks the messages of a topic as read (REST: POST /mark_topic_as_read).' })
  async markTopicAsRead(
    @Arg('streamId', () => Int) streamId: number,
    @Arg('topicName') topicName: string,
    @Ctx() ctx: GraphQLContext,
  ): Promise<MarkAsReadPayload> {
    await markTopicAsRead(ctx.deps, me(ctx), streamId, topicName);
    return done();
  }

  @Authorized()
  @Mutation(() => NarrowFlagsPayload, {
    description: 'Adds or removes a flag on a window of a narrow, e.g. marks a narrow as read (REST: POST /messages/flags/narrow).',
  })
  async updateFlagsForNarrow(
    @Arg('narrow', () => [NarrowTermInput]) narrow: NarrowTermInput[],
    @Arg('anchor', { description: 'newest, oldest, first_unread or a message id.' }) anchor: string,
    @Arg('numBefore', () => Int) numBefore: number,
    @Arg('numAfter', () => Int) numAfter: number,
    @Arg('op', { description: 'add or remove.' }) op: string,
    @Arg('flag') flag: string,
    @Arg('includeAnchor', { defaultValue: true }) includeAnchor: boolean,
    @Ctx() ctx: GraphQLContext,
  ): Promise<NarrowFlagsPayload> {
    if (numBefore < 0 || numAfter < 0) throw errors.badRequest('Page sizes cannot be negative');
    const res = await updateMessageFlagsForNarrow(ctx.deps, me(ctx), {
      anchor: parseAnchor(anchor, false),
      includeAnchor,
      numBefore,
      numAfter,
      narrow: narrowTerms(narrow),
      op,
      flag,
    });
    return Object.assign(new NarrowFlagsPayload(), {
      processedCount: res.processed_count,
      updatedCount: res.updated_count,
      firstProcessedId: res.first_processed_id,
      lastProcessedId: res.last_processed_id,
      foundOldest: res.found_oldest,
      foundNewest: res.found_newest,
      ignoredBecauseNotSubscribedChannels: res.ignored_because_not_subscribed_channels ?? null,
    });
  }

  @Authorized()
  @Mutation(() => TypingPayload, {
    description: 'Says you started or stopped typing: to users (userIds) or to a channel topic (streamId and topic) (REST: POST /typing).',
  })
  async setTyping(
    @Arg('op', { description: 'start or stop.' }) op: string,
    @Arg('userIds', () => [Int], { nullable: true }) userIds: number[] | null,
    @Arg('streamId', () => Int, { nullable: true }) streamId: number | null,
    @Arg('topic', () => String, { nullable: true }) topic: string | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<TypingPayload> {
    if (op !== 'start' && op !== 'stop') throw errors.badRequest('Invalid op');
    if ((userIds == null) === (streamId == null)) throw errors.badRequest('Give either userIds or streamId and topic');
    if (userIds != null) await sendDirectTyping(ctx.deps, me(ctx), userIds, op);
    else {
      if (topic == null) throw errors.badRequest('Missing topic');
      await sendChannelTyping(ctx.deps, me(ctx), streamId!, topic, op);
    }
    return Object.assign(new TypingPayload(), { op });
  }
}
