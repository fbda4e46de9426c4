import { Arg, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { Addressee } from '../core/messages/addressee';
import { deleteMessage } from '../core/messages/delete';
import { editMessage } from '../core/messages/edit';
import { PROPAGATE_MODES, PropagateMode } from '../core/messages/propagate-mode';
import { Anchor, getMessages, getSingleMessage, parseAnchor } from '../core/messages/fetch';
import { parseFetchAnchor } from '../core/messages/anchor-date';
import { updateMessageFlags } from '../core/messages/flag-actions';
import { getMessageHistory } from '../core/messages/history';
import { parseNarrow } from '../core/messages/narrow-parse';
import { sendMessage } from '../core/messages/send';
import { addReaction, removeReaction } from '../core/reactions/actions';
import { updateUserTopic } from '../core/user-topics/actions';
import { channelTopics } from '../core/user-topics/queries';
import { VISIBILITY_POLICIES } from '../core/user-topics/store';
import type { User } from '../core/users/model';
import { errors } from '../errors';
import type { GraphQLContext } from '../schema/context';
import {
  DeletedMessagePayload,
  EditMessageInput,
  MessagePayload,
  UserTopicPayload,
  MessageEdge,
  PageInfo,
  MessagePageType,
  MessageSnapshotType,
  MessageType,
  NarrowTermInput,
  SendMessageInput,
  SendMessageResultType,
  TopicType,
  UpdateFlagsResultType,
} from '../schema/messages';

const me = (ctx: GraphQLContext) => ctx.user as User;
const DEFAULT_PAGE = 50;

/** Narrow terms in GraphQL form, checked by the same rules as REST's narrow parameter. */
export function narrowTerms(input: NarrowTermInput[] | undefined | null) {
  const terms = (input ?? []).map((t) => {
    const given = [t.operand, t.operandId, t.operandIds].filter((x) => x !== undefined && x !== null);
    if (given.length !== 1) throw errors.badRequest('Give exactly one of operand, operandId and operandIds');
    return { operator: t.operator, operand: given[0], negated: t.negated };
  });
  return parseNarrow(terms);
}

function addressee(input: SendMessageInput): { addressee: Addressee; topic: string | null } {
  const toChannel = input.channelId !== undefined && input.channelId !== null ? input.channelId : (input.channelName ?? null);
  const hasUsers = (input.userIds ?? null) !== null || (input.emails ?? null) !== null;
  if ((toChannel !== null) === hasUsers) throw errors.badRequest('Give either a channel (channelId or channelName) or users (userIds or emails)');
  if (toChannel !== null) return { addressee: { type: 'stream', channel: toChannel }, topic: input.topic ?? null };
  return { addressee: { type: 'private', userIds: input.userIds ?? null, emails: input.emails ?? null }, topic: null };
}

/** The message as the requester sees it now, for mutations that changed it. */
async function messagePayload(ctx: GraphQLContext, id: number): Promise<MessagePayload> {
  const res = await getSingleMessage(ctx.deps, me(ctx), id, { applyMarkdown: true, allowEmptyTopicName: false });
  return Object.assign(new MessagePayload(), { message: MessageType.from(res.message, res.raw_content) });
}

@Resolver()
export class MessageResolver {
  @Authorized()
  @Query(() => MessagePageType, {
    description:
      'Messages of a narrow. Pages with `last`/`before` (older) or `first`/`after` (newer), cursors being message ids; or give anchor, numBefore and numAfter as REST does.',
  })
  async messages(
    @Ctx() ctx: GraphQLContext,
    @Arg('narrow', () => [NarrowTermInput], { nullable: true }) narrow: NarrowTermInput[] | null,
    @Arg('first', () => Int, { nullable: true }) first: number | null,
    @Arg('after', () => String, { nullable: true }) after: string | null,
    @Arg('last', () => Int, { nullable: true }) last: number | null,
    @Arg('before', () => String, { nullable: true }) before: string | null,
    @Arg('anchor', () => String, { nullable: true, description: 'newest, oldest, first_unread, date (with anchorDate) or a message id.' }) anchor:
      | string
      | null,
    @Arg('anchorDate', () => String, {
      nullable: true,
      description: 'With anchor "date": an ISO 8601 moment (UTC unless an offset is given); the anchor is the oldest message sent at or after it.',
    })
    anchorDate: string | null,
    @Arg('numBefore', () => Int, { nullable: true }) numBefore: number | null,
    @Arg('numAfter', () => Int, { nullable: true }) numAfter: number | null,
    @Arg('includeAnchor', { defaultValue: true }) includeAnchor: boolean,
    @Arg('applyMarkdown', { defaultValue: true }) applyMarkdown: boolean,
    @Arg('allowEmptyTopicName', { defaultValue: false }) allowEmptyTopicName: boolean,
  ): Promise<MessagePageType> {
    const terms = narrowTerms(narrow);
    let window: { anchor: Anchor; includeAnchor: boolean; numBefore: number; numAfter: number };
    if (first != null || after != null) {
      window = { anchor: parseAnchor(after ?? 'oldest', false), includeAnchor: after == null, numBefore: 0, numAfter: first ?? DEFAULT_PAGE };
    } else if (last != null || before != null) {
      window = { anchor: parseAnchor(before ?? 'newest', false), includeAnchor: before == null, numBefore: last ?? DEFAULT_PAGE, numAfter: 0 };
    } else {
      const parsed = parseFetchAnchor(anchor ?? 'newest', false, anchorDate ?? undefined);
      window = { anchor: parsed, includeAnchor, numBefore: numBefore ?? DEFAULT_PAGE, numAfter: numAfter ?? 0 };
    }
    if (window.numBefore < 0 || window.numAfter < 0) throw errors.badRequest('Page sizes cannot be negative');
    const res = await getMessages(ctx.deps, me(ctx), { ...window, narrow: terms, applyMarkdown, clientGravatar: false, allowEmptyTopicName });
    const messages = res.messages.map((m) => MessageType.from(m));
    const startCursor = messages.length > 0 ? String(messages[0].id) : null;
    const endCursor = messages.length > 0 ? String(messages[messages.length - 1].id) : null;
    return Object.assign(new MessagePageType(), {
      messages,
      anchor: res.anchor,
      foundAnchor: res.found_anchor,
      foundOldest: res.found_oldest,
      foundNewest: res.found_newest,
      historyLimited: res.history_limited,
      startCursor,
      endCursor,
      edges: messages.map((node) => Object.assign(new MessageEdge(), { cursor: String(node.id), node })),
      pageInfo: Object.assign(new PageInfo(), { hasPreviousPage: !res.found_oldest, hasNextPage: !res.found_newest, startCursor, endCursor }),
    });
  }

  @Authorized()
  @Query(() => MessageType)
  async message(
    @Arg('id', () => Int) id: number,
    @Arg('applyMarkdown', { defaultValue: true }) applyMarkdown: boolean,
    @Arg('allowEmptyTopicName', { defaultValue: false }) allowEmptyTopicName: boolean,
    @Ctx() ctx: GraphQLContext,
  ): Promise<MessageType> {
    const res = await getSingleMessage(ctx.deps, me(ctx), id, { applyMarkdown, allowEmptyTopicName });
    return MessageType.from(res.message, res.raw_content);
  }

  @Authorized()
  @Query(() => [MessageSnapshotType], { description: 'The edit history of a message, oldest first.' })
  async messageHistory(
    @Arg('id', () => Int) id: number,
    @Arg('allowEmptyTopicName', { defaultValue: false }) allowEmptyTopicName: boolean,
    @Ctx() ctx: GraphQLContext,
  ): Promise<MessageSnapshotType[]> {
    return (await getMessageHistory(ctx.deps, me(ctx), id, allowEmptyTopicName)).map(MessageSnapshotType.from);
  }

  @Authorized()
  @Query(() => [TopicType], { description: 'Topics of a channel you can see, most recent first.' })
  async topics(
    @Arg('streamId', () => Int) streamId: number,
    @Arg('allowEmptyTopicName', { defaultValue: false }) allowEmptyTopicName: boolean,
    @Ctx() ctx: GraphQLContext,
  ): Promise<TopicType[]> {
    return (await channelTopics(ctx.deps, me(ctx), streamId, allowEmptyTopicName)).map((t) =>
      Object.assign(new TopicType(), { name: t.name, maxId: t.max_id }),
    );
  }

  @Authorized()
  @Mutation(() => SendMessageResultType)
  async sendMessage(@Arg('input') input: SendMessageInput, @Ctx() ctx: GraphQLContext): Promise<SendMessageResultType> {
    const { addressee: to, topic } = addressee(input);
    const result = await sendMessage(ctx.deps, me(ctx), {
      addressee: to,
      topic,
      content: input.content,
      client: 'GraphQL',
      localId: input.localId ?? undefined,
      queueId: input.queueId ?? undefined,
      readBySender: input.readBySender ?? undefined,
      idempotencyKey: input.idempotencyKey ?? undefined,
    });
    return Object.assign(new SendMessageResultType(), { id: result.id, automaticNewVisibilityPolicy: result.automatic_new_visibility_policy ?? null });
  }

  @Authorized()
  @Mutation(() => MessagePayload, { description: 'Edits content, topic or channel (REST: PATCH /messages/{id}).' })
  async editMessage(@Arg('id', () => Int) id: number, @Arg('input') input: EditMessageInput, @Ctx() ctx: GraphQLContext): Promise<MessagePayload> {
    if (!(PROPAGATE_MODES as readonly string[]).includes(input.propagateMode)) throw errors.badRequest('Invalid propagate_mode');
    await editMessage(ctx.deps, me(ctx), id, {
      content: input.content ?? undefined,
      topic: input.topic ?? undefined,
      streamId: input.streamId ?? undefined,
      propagateMode: input.propagateMode as PropagateMode,
      sendNotificationToOldThread: input.sendNotificationToOldThread,
      sendNotificationToNewThread: input.sendNotificationToNewThread,
    });
    return messagePayload(ctx, id);
  }

  @Authorized()
  @Mutation(() => DeletedMessagePayload)
  async deleteMessage(@Arg('id', () => Int) id: number, @Ctx() ctx: GraphQLContext): Promise<DeletedMessagePayload> {
    await deleteMessage(ctx.deps, me(ctx), id);
    return Object.assign(new DeletedMessagePayload(), { id });
  }

  @Authorized()
  @Mutation(() => UpdateFlagsResultType, { description: 'Adds or removes a personal flag (read, starred, collapsed).' })
  async updateFlags(
    @Arg('messageIds', () => [Int]) messageIds: number[],
    @Arg('op', { description: 'add or remove.' }) op: string,
    @Arg('flag') flag: string,
    @Ctx() ctx: GraphQLContext,
  ): Promise<UpdateFlagsResultType> {
    const res = await updateMessageFlags(ctx.deps, me(ctx), op, flag, messageIds);
    return Object.assign(new UpdateFlagsResultType(), {
      messages: res.messages as number[],
      ignoredBecauseNotSubscribedChannels: (res.ignored_because_not_subscribed_channels as number[] | undefined) ?? null,
    });
  }

  @Authorized()
  @Mutation(() => MessagePayload)
  async addReaction(
    @Arg('messageId', () => Int) messageId: number,
    @Arg('emojiName') emojiName: string,
    @Arg('emojiCode', () => String, { nullable: true }) emojiCode: string | null,
    @Arg('reactionType', () => String, { nullable: true }) reactionType: string | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<MessagePayload> {
    await addReaction(ctx.deps, me(ctx), messageId, { emojiName, emojiCode: emojiCode ?? undefined, reactionType: reactionType ?? undefined });
    return messagePayload(ctx, messageId);
  }

  @Authorized()
  @Mutation(() => MessagePayload)
  async removeReaction(
    @Arg('messageId', () => Int) messageId: number,
    @Arg('emojiName', () => String, { nullable: true }) emojiName: string | null,
    @Arg('emojiCode', () => String, { nullable: true }) emojiCode: string | null,
    @Arg('reactionType', { defaultValue: 'unicode_emoji' }) reactionType: string,
    @Ctx() ctx: GraphQLContext,
  ): Promise<MessagePayload> {
    await removeReaction(ctx.deps, me(ctx), messageId, { emojiName: emojiName ?? undefined, emojiCode: emojiCode ?? undefined, reactionType });
    return messagePayload(ctx, messageId);
  }

  @Authorized()
  @Mutation(() => UserTopicPayload, { description: 'Sets your visibility policy for a topic: 0 none, 1 muted, 2 unmuted, 3 followed.' })
  async updateUserTopic(
    @Arg('streamId', () => Int) streamId: number,
    @Arg('topic') topic: string,
    @Arg('visibilityPolicy', () => Int) visibilityPolicy: number,
    @Ctx() ctx: GraphQLContext,
  ): Promise<UserTopicPayload> {
    if (!(VISIBILITY_POLICIES as readonly number[]).includes(visibilityPolicy)) throw errors.badRequest('Invalid visibility_policy');
    if ([...topic].length > 60) throw errors.badRequest('topic is too long (limit: 60 characters)');
    await updateUserTopic(ctx.deps, me(ctx), streamId, topic, visibilityPolicy);
    return Object.assign(new UserTopicPayload(), { id: `${streamId}:${topic}`, streamId, topic, visibilityPolicy });
  }
}
