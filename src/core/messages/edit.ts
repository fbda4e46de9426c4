import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { inTransaction, UnitOfWork } from '../../db/unit-of-work';
import { ApiError, errors } from '../../errors';
import { accessChannelById, ChannelViewer, loadViewer } from '../channels/access';
import { holdsGroupSetting } from '../channels/group-settings';
import { Stream } from '../channels/model';
import { normalizeMessageContent } from '../markdown';
import type { ZulipEvent } from '../../realtime/bus';
import type { User } from '../users/model';
import { setVisibilityPolicies, VisibilityPolicy } from '../user-topics/store';
import { accessMessage, canReadChannelHistory } from './access';
import { deleteMessageEvent } from './events';
import { FLAG_BITS, flagList } from './flags';
import { alertWordIndex } from '../alert-words/store';
import { usersAlertedBy } from '../alert-words/matching';
import { channelRecipientId, MessageRow } from './model';
import { canEditTopic, canMoveOutOfChannel, canResolveTopics, isModerator } from './permissions';
import { loadRealmMessageSettings, RealmMessageSettings, WILDCARD_MENTION_THRESHOLD } from './realm-settings';
import { groupMemberIds, MessageRendering, renderMessageContent } from './render';
import { checkCanCreateTopic, checkTopicsPolicy, topicParticipantIds } from './send';
import { EMPTY_TOPIC_DISPLAY_NAME, RESOLVED_TOPIC_PREFIX, canonicalTopic, checkTopicPrintable, truncateTopic, unresolvedName } from './topics';
import { isMeMessage } from './view';
import { realmLinkifiers } from '../linkifiers/cache';
import { topicLinks } from '../linkifiers/topic-links';
import { sendTopicEditNotices } from './move-notices';
import type { PropagateMode } from './propagate-mode';
import { anyOf, listParam, noneOf } from '../../db/lists';
import { queueRemovalsForLostMentions } from '../notifications/queue';
import { mayLinkUploads, syncMessageClaims } from '../uploads/claims';
import { settleImagePreviews } from '../uploads/thumbnail-rewrite';
import type { AttachmentDict } from '../uploads/view';
import { isWidgetMessage } from '../submessages/queries';

/**
 * Editing a message (PATCH /messages/{id}): its content (the sender, within the organization's
 * time limit), its topic (moving one message, the later ones, or the whole topic; resolving and
 * unresolving with the "✔ " prefix), or its channel. Each edit is recorded for the edit history,
 * mentions and their flags are recomputed on content edits, and an `update_message` event goes
 * to everyone who can see the message. Users who lose access through a move get
 * `delete_message`; topic preferences follow a topic that moved entirely.
 *
 * The notification bot then posts its notices about moved and resolved topics (move-notices.ts).
 */
export interface EditMessageRequest {
  content?: string;
  topic?: string;
  streamId?: number;
  propagateMode: PropagateMode;
  sendNotificationToOldThread: boolean;
  sendNotificationToNewThread: boolean;
}

/** Grace periods (seconds) Zulip adds to its limits, for clients racing the deadline. */
const EDIT_LIMIT_BUFFER = 20;
const MOVE_LIMIT_BUFFER = 20;

const secondsSince = (date: Date) => (Date.now() - new Date(date).getTime()) / 1000;

/** Whether `user` may edit the message's content; `buffer` is the grace added to the time limit. */
export function checkCanEditContent(user: User, message: MessageRow, settings: RealmMessageSettings, buffer = EDIT_LIMIT_BUFFER): void {
  if (!settings.allowMessageEditing) throw errors.badRequest('Your organization has turned off message editing');
  if (message.sender_id !== user.id) throw errors.badRequest("You don't have permission to edit this message");
  const limit = settings.messageContentEditLimitSeconds;
  if (limit !== null && secondsSince(message.date_sent) > limit + buffer) {
    throw errors.badRequest('The time limit for editing this message has passed');
  }
}

interface Plan {
  message: MessageRow;
  origStream: Stream | undefined;
  targetStream: Stream | undefined;
  newContent: string | null;
  newTopic: string | null;
  topicResolved: boolean;
  topicUnresolved: boolean;
}

function topicToggles(oldTopic: string, preTruncation: string, newTopic: string) {
  const prefixLength = [...RESOLVED_TOPIC_PREFIX].length;
  const resolved =
    newTopic.startsWith(RESOLVED_TOPIC_PREFIX) && !oldTopic.startsWith(RESOLVED_TOPIC_PREFIX) && [...preTruncation].slice(prefixLength).join('') === oldTopic;
  const unresolved = oldTopic.startsWith(RESOLVED_TOPIC_PREFIX) && !newTopic.startsWith(RESOLVED_TOPIC_PREFIX) && unresolvedName(oldTopic) === newTopic;
  return { resolved, unresolved };
}

/** The messages a topic/channel change applies to, limited to those the editor can see. */
async function messagesToMove(db: Knex, viewer: ChannelViewer, plan: Plan, mode: PropagateMode): Promise<MessageRow[]> {
  const { message, origStream } = plan;
  if (mode === 'change_one' || !origStream) return [message];
  const query = db('messages').where('stream_id', origStream.id).whereRaw('lower(topic) = lower(?)', [message.topic]).orderBy('id');
  if (mode === 'change_later') query.where('id', '>=', message.id);
  if (!historyVisible(viewer, origStream)) {
    query.whereIn('id', (sub) => sub.select('message_id').from('user_messages').where('user_id', viewer.user.id));
  }
  const rows: MessageRow[] = await query;
  return rows.some((r) => r.id === message.id) ? rows : [message, ...rows];
}

const historyVisible = canReadChannelHistory;

/** Moving a whole topic is limited, for non-moderators, to messages younger than the move limits. */
async function checkChangeAllTimeLimit(db: Knex, viewer: ChannelViewer, settings: RealmMessageSettings, plan: Plan, movesChannel: boolean): Promise<void> {
  const limits: number[] = [];
  if (plan.newTopic !== null && settings.moveMessagesWithinStreamLimitSeconds !== null)
    limits.push(settings.moveMessagesWithinStreamLimitSeconds + MOVE_LIMIT_BUFFER);
  if (movesChannel && settings.moveMessagesBetweenStreamsLimitSeconds !== null)
    limits.push(settings.moveMessagesBetweenStreamsLimitSeconds + MOVE_LIMIT_BUFFER);
  if (limits.length === 0) return;
  const deadline = Math.min(...limits);
  const all = (await messagesToMove(db, viewer, plan, 'change_all')).sort((a, b) => new Date(a.date_sent).getTime() - new Date(b.date_sent).getTime());
  const allowed = all.filter((m) => secondsSince(m.date_sent) < deadline);
  if (allowed.length === all.length) return;
  throw new ApiError(
    'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
    `You only have permission to move the ${allowed.length}/${all.length} most recent messages in this topic.`,
    400,
    { first_message_id_allowed_to_move: allowed[0]?.id ?? null, total_messages_in_topic: all.length, total_messages_allowed_to_move: allowed.length },
  );
}

export async function activeSubscribers(db: Knex, streamId: number, includeDeactivatedUsers = false): Promise<Set<number>> {
  const query = db('subscriptions')
    .join('users', 'users.id', 'subscriptions.user_id')
    .where({ 'subscriptions.stream_id': streamId, 'subscriptions.active': true });
  if (!includeDeactivatedUsers) query.where('users.is_active', true);
  return new Set((await query.select('subscriptions.user_id')).map((r: { user_id: number }) => r.user_id));
}

export async function editMessage(deps: AppDeps, user: User, messageId: number, request: EditMessageRequest): Promise<{ detached_uploads: AttachmentDict[] }> {
  let detached: AttachmentDict[] = [];
  await inTransaction(deps, deps.realmId, async (uow) => {
    const db = uow.trx;
    const viewer = await loadViewer(db, user);
    const { message, stream } = await accessMessage(db, viewer, messageId, { modifying: true, lock: true });
    const settings = await loadRealmMessageSettings(db, deps.realmId, viewer.systemGroups);
    if (request.content !== undefined) checkCanEditContent(user, message, settings);

    let rawTopic: string | null = null;
    if (request.topic !== undefined) {
      rawTopic = canonicalTopic(request.topic);
      if (rawTopic === message.topic) rawTopic = null;
    }
    const streamId = request.streamId ?? null;
    const content = request.content ?? null;
    if (rawTopic === null && content === null && streamId === null) throw errors.badRequest('Nothing to change');
    if (message.stream_id === null) {
      if (streamId !== null) throw errors.badRequest('Direct messages cannot be moved to channels.');
      if (rawTopic !== null) throw errors.badRequest('Direct messages cannot have topics.');
    }
    if (request.propagateMode !== 'change_one' && rawTopic === null && streamId === null) {
      throw errors.badRequest('Invalid propagate_mode without topic edit');
    }
    if (rawTopic !== null && (rawTopic === RESOLVED_TOPIC_PREFIX.trim() || rawTopic === `${RESOLVED_TOPIC_PREFIX}${EMPTY_TOPIC_DISPLAY_NAME}`)) {
      throw errors.badRequest('General chat cannot be marked as resolved');
    }
    if (rawTopic !== null) checkTopicPrintable(rawTopic);
    if (streamId !== null && content !== null) throw errors.badRequest('Cannot change message content while changing channel');
    // A widget's state lives in its submessages, which new content could not carry over (as in Zulip).
    if (content !== null && (await isWidgetMessage(db, message.id))) throw errors.badRequest('Widgets cannot be edited.');

    const newContent = content === null ? null : normalizeMessageContent(content.trimEnd() === '' ? '(deleted)' : content);
    const plan: Plan = { message, origStream: stream, targetStream: stream, newContent, newTopic: null, topicResolved: false, topicUnresolved: false };
    if (stream) {
      if (rawTopic !== null) {
        plan.newTopic = truncateTopic(rawTopic);
        const toggles = topicToggles(message.topic, rawTopic, plan.newTopic);
        plan.topicResolved = toggles.resolved;
        plan.topicUnresolved = toggles.unresolved;
      }
      if (streamId !== null) plan.targetStream = await accessChannelById(db, viewer, streamId);
      const targetTopic = plan.newTopic ?? message.topic;
      // Moves must respect the target's topic rules; any edit in an "only general chat" channel must too.
      if (plan.newTopic !== null || streamId !== null || targetTopic !== '') await checkTopicsPolicy(db, deps.realmId, plan.targetStream!, targetTopic);
    }
    const movesChannel = stream !== undefined && plan.targetStream!.id !== stream.id;
    const isResolveToggle = plan.topicResolved || plan.topicUnresolved;

    if (stream && plan.newTopic !== null) {
      if (isResolveToggle) {
        if (!canResolveTopics(viewer, settings, stream, plan.targetStream!))
          throw errors.badRequest("You don't have permission to resolve topics in this channel.");
      } else {
        if (!canEditTopic(viewer, settings, stream, plan.targetStream!)) throw errors.badRequest("You don't have permission to edit this message");
        const limit = settings.moveMessagesWithinStreamLimitSeconds;
        if (limit !== null && !isModerator(viewer) && secondsSince(message.date_sent) > limit + EDIT_LIMIT_BUFFER) {
          throw errors.badRequest("The time limit for editing this message's topic has passed.");
        }
      }
    }

    let rendering: MessageRendering | null = null;
    if (newContent !== null) {
      rendering = await renderMessageContent(db, deps, newContent, async () => viewer);
      if (stream) await checkEditWildcards(db, viewer, settings, stream, message, rendering);
    }

    if (streamId !== null && stream) {
      if (!canMoveOutOfChannel(viewer, settings, stream)) throw errors.badRequest("You don't have permission to move this message");
      const target = plan.targetStream!;
      if (target.can_send_message_group !== viewer.systemGroups['role:everyone'] && !holdsGroupSetting(user, viewer.groupIds, target.can_send_message_group)) {
        throw errors.badRequest('You do not have permission to post in this channel.');
      }
      const limit = settings.moveMessagesBetweenStreamsLimitSeconds;
      if (limit !== null && !isModerator(viewer) && secondsSince(message.date_sent) > limit + EDIT_LIMIT_BUFFER) {
        throw errors.badRequest("The time limit for editing this message's channel has passed");
      }
    }
    if (stream && request.propagateMode === 'change_all' && !isModerator(viewer) && (plan.newTopic !== null || movesChannel) && !isResolveToggle) {
      await checkChangeAllTimeLimit(db, viewer, settings, plan, movesChannel);
    }
    if (stream && (plan.newTopic !== null || movesChannel) && !isResolveToggle) {
      await checkCanCreateTopic(db, viewer, plan.targetStream!, plan.newTopic ?? message.topic);
    }
    const movedCount = await applyEdit(deps, uow, viewer, plan, rendering, request.propagateMode);
    if (plan.newContent !== null && rendering && (mayLinkUploads(message.rendered_content) || mayLinkUploads(rendering.html))) {
      detached = await syncMessageClaims(uow, user, message.id, rendering.html);
    }
    if (stream && (plan.newTopic !== null || movesChannel)) {
      await sendTopicEditNotices(deps, uow, {
        mover: user,
        origStream: stream,
        origTopic: message.topic,
        targetStream: plan.targetStream!,
        targetTopic: plan.newTopic ?? message.topic,
        mode: request.propagateMode,
        movedCount,
        resolved: plan.topicResolved,
        unresolved: plan.topicUnresolved,
        notifyOldThread: request.sendNotificationToOldThread,
        notifyNewThread: request.sendNotificationToNewThread,
      });
    }
  });
  return { detached_uploads: detached };
}

async function checkEditWildcards(
  db: Knex,
  viewer: ChannelViewer,
  settings: RealmMessageSettings,
  stream: Stream,
  message: MessageRow,
  rendering: MessageRendering,
): Promise<void> {
  const many = () => holdsGroupSetting(viewer.user, viewer.groupIds, settings.groups.can_mention_many_users_group);
  if (rendering.mentions.streamWildcard && (await activeSubscribers(db, stream.id)).size > WILDCARD_MENTION_THRESHOLD && !many()) {
    throw new ApiError('STREAM_WILDCARD_MENTION_NOT_ALLOWED', 'You do not have permission to use channel wildcard mentions in this channel.');
  }
  if (rendering.mentions.topicWildcard && (await topicParticipantIds(db, stream.id, message.topic)).size > WILDCARD_MENTION_THRESHOLD && !many()) {
    throw new ApiError('TOPIC_WILDCARD_MENTION_NOT_ALLOWED', 'You do not have permission to use topic wildcard mentions in this topic.');
  }
}

/** Recomputes mention and alert-word flags of everyone holding the message after its content changed. */
async function updateMentionFlags(db: Knex, message: MessageRow, topic: string, rendering: MessageRendering, alerted: Set<number>): Promise<void> {
  const mentioned = new Set([...rendering.mentions.userIds, ...(await groupMemberIds(db, rendering.mentions.groupIds))]);
  const participants =
    message.stream_id !== null && rendering.mentions.topicWildcard ? await topicParticipantIds(db, message.stream_id, topic) : new Set<number>();
  if (rendering.mentions.topicWildcard) participants.add(message.sender_id);
  const rows: { user_id: number; flags: number }[] = await db('user_messages').where('message_id', message.id).select('user_id', 'flags');
  const mentionBits = FLAG_BITS.mentioned | FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned | FLAG_BITS.has_alert_word;
  const newlyMentioned: number[] = [];
  // Mentions in Zulip's sense of a notification taken back by an edit (alert words are not).
  const personalMentionBits = FLAG_BITS.mentioned | FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned;
  const noLongerMentioned: number[] = [];
  for (const row of rows) {
    let flags = row.flags & ~mentionBits;
    if (mentioned.has(row.user_id)) flags |= FLAG_BITS.mentioned;
    if (alerted.has(row.user_id)) flags |= FLAG_BITS.has_alert_word;
    if (rendering.mentions.streamWildcard) flags |= FLAG_BITS.stream_wildcard_mentioned;
    if (participants.has(row.user_id)) flags |= FLAG_BITS.topic_wildcard_mentioned;
    if (flags !== row.flags) await db('user_messages').where({ user_id: row.user_id, message_id: message.id }).update({ flags });
    if ((flags & mentionBits & ~row.flags) !== 0 && row.user_id !== message.sender_id) newlyMentioned.push(row.user_id);
    if ((row.flags & personalMentionBits) !== 0 && (flags & personalMentionBits) === 0) noLongerMentioned.push(row.user_id);
  }
  if (message.stream_id !== null) await queueRemovalsForLostMentions(db, message.realm_id, message.stream_id, message.id, noLongerMentioned);
  // Decided by the notification worker, as a new message would be (core/notifications/decide.ts).
  if (newlyMentioned.length > 0) {
    await db('notification_edits').insert({ realm_id: message.realm_id, message_id: message.id, user_ids: listParam(newlyMentioned) });
  }
}

/** Applies the edit; returns how many messages moved (1 for a content edit). */
async function applyEdit(
  deps: AppDeps,
  uow: UnitOfWork,
  viewer: ChannelViewer,
  plan: Plan,
  rendering: MessageRendering | null,
  mode: PropagateMode,
): Promise<number> {
  const db = uow.trx;
  const { message, origStream } = plan;
  const target = plan.targetStream;
  const now = new Date();
  const movesChannel = origStream !== undefined && target !== undefined && target.id !== origStream.id;
  const movesTopic = plan.newTopic !== null;
  const moving = movesChannel || movesTopic;
  const event: ZulipEvent = {
    type: 'update_message',
    user_id: viewer.user.id,
    edit_timestamp: Math.floor(now.getTime() / 1000),
    message_id: message.id,
    rendering_only: false,
  };
  if (origStream) {
    event.stream_name = origStream.name;
    event.stream_id = origStream.id;
  }

  // Content.
  if (plan.newContent !== null && rendering) {
    rendering.html = await settleImagePreviews(db, deps.realmId, rendering.html, { lock: false });
    event.orig_content = message.content;
    event.orig_rendered_content = message.rendered_content;
    event.content = plan.newContent;
    event.rendered_content = rendering.html;
    event.is_me_message = isMeMessage(plan.newContent);
    await db('messages').where({ id: message.id }).update({
      content: plan.newContent,
      rendered_content: rendering.html,
      has_link: rendering.hasLink,
      has_image: rendering.hasImage,
      has_attachment: rendering.hasAttachment,
    });
    const alerted = usersAlertedBy(await alertWordIndex(deps, db), plan.newContent);
    await updateMentionFlags(db, message, plan.newTopic ?? message.topic, rendering, alerted);
  }

  // Topic and channel.
  let moved: MessageRow[] = [message];
  let targetTopicHadMessages = false;
  let usersLosingAccess = new Set<number>();
  let usersLosingRows = new Set<number>();
  const targetTopic = plan.newTopic ?? message.topic;
  if (moving && origStream && target) {
    event.propagate_mode = mode;
    event.orig_subject = message.topic;
    if (movesTopic) {
      event.subject = plan.newTopic;
      event.topic_links = topicLinks(plan.newTopic!, await realmLinkifiers(db, deps.realmId));
    }
    if (movesChannel) event.new_stream_id = target.id;
    targetTopicHadMessages = (await db('messages').where('stream_id', target.id).whereRaw('lower(topic) = lower(?)', [targetTopic]).first('id')) !== undefined;
    moved = await messagesToMove(db, viewer, plan, mode);
    const ids = moved.map((m) => m.id);
    const change: Record<string, unknown> = { topic: targetTopic, last_edit_time: now };
    if (movesChannel) {
      change.stream_id = target.id;
      change.recipient_id = await channelRecipientId(db, deps.realmId, target.id);
    }
    await db('messages')
      .whereRaw(...anyOf('id', ids))
      .update(change);

    if (movesChannel) {
      const oldAll = new Set((await db('subscriptions').where('stream_id', origStream.id).select('user_id')).map((r: { user_id: number }) => r.user_id));
      const newCurrent = await activeSubscribers(db, target.id, true);
      usersLosingRows = new Set([...oldAll].filter((id) => !newCurrent.has(id)));
      if (target.isPublic()) {
        const guests = new Set(
          (
            await db('users')
              .whereRaw(...anyOf('id', [...usersLosingRows]))
              .where('role', 600)
              .select('id')
          ).map((r: { id: number }) => r.id),
        );
        usersLosingAccess = guests;
      } else {
        usersLosingAccess = usersLosingRows;
      }
      if (!target.history_public_to_subscribers && newCurrent.size > 0) {
        await db.raw(
          `INSERT INTO user_messages (user_id, message_id, realm_id, flags)
           SELECT u, m.id, ?, ? FROM unnest(?::int[]) AS us(u) CROSS JOIN messages m WHERE m.id = ANY(?::int[]) FOR KEY SHARE OF m
           ON CONFLICT DO NOTHING`,
          [deps.realmId, FLAG_BITS.read, [...newCurrent], ids],
        );
      }
      if (usersLosingRows.size > 0)
        await db('user_messages')
          .whereRaw(...anyOf('user_id', [...usersLosingRows]))
          .whereRaw(...anyOf('message_id', ids))
          .delete();
      uow.emit(deleteMessageEvent(ids, { streamId: origStream.id, topic: message.topic }), usersLosingAccess);
    }
  } else {
    await db('messages').where({ id: message.id }).update({ last_edit_time: now });
  }

  // Edit history: the edited message records everything; the others moved along, the move only.
  const history = {
    realm_id: deps.realmId,
    user_id: viewer.user.id,
    edit_time: now,
    prev_topic: movesTopic ? message.topic : null,
    topic: movesTopic ? plan.newTopic : null,
    prev_stream_id: movesChannel ? origStream!.id : null,
    stream_id: movesChannel ? target!.id : null,
  };
  await db('message_edits').insert(
    moved.map((m) => ({
      ...history,
      message_id: m.id,
      prev_content: m.id === message.id && plan.newContent !== null ? message.content : null,
      prev_rendered_content: m.id === message.id && plan.newContent !== null ? message.rendered_content : null,
    })),
  );
  event.message_ids = moved.map((m) => m.id).sort((a, b) => a - b);

  if (moving && origStream && target) {
    await moveTopicPreferences(db, uow, viewer, plan, mode, moved, targetTopicHadMessages, usersLosingAccess);
  }

  // Everyone holding the message hears of the edit with their flags; in channels with shared
  // history, so do current subscribers who never received it.
  const rows: { user_id: number; flags: number }[] = await db('user_messages as um')
    .join('users', 'users.id', 'um.user_id')
    .where({ 'um.message_id': message.id, 'users.is_active': true })
    .select('um.user_id', 'um.flags');
  const byFlags = new Map<number, number[]>();
  const notified = new Set<number>();
  for (const row of rows) {
    if (usersLosingRows.has(row.user_id)) continue;
    notified.add(row.user_id);
    byFlags.set(row.flags, [...(byFlags.get(row.flags) ?? []), row.user_id]);
  }
  if (origStream && origStream.history_public_to_subscribers) {
    const subscribers = await activeSubscribers(db, origStream.id);
    let excluded = new Set<number>();
    if (movesChannel && target) {
      const oldCurrent = await activeSubscribers(db, origStream.id, true);
      const newGuests = (await db('subscriptions as s')
        .join('users as u', 'u.id', 's.user_id')
        .where({ 's.stream_id': target.id, 's.active': true, 'u.role': 600 })
        .select('s.user_id')) as { user_id: number }[];
      excluded = new Set(newGuests.map((r) => r.user_id).filter((id) => !oldCurrent.has(id)));
    }
    const extra = [...subscribers].filter((id) => !notified.has(id) && !usersLosingAccess.has(id) && !excluded.has(id));
    uow.emit({ ...event, flags: ['read'] }, extra);
  }
  for (const [flags, userIds] of byFlags) uow.emit({ ...event, flags: flagList(flags) }, userIds);
  return moved.length;
}

/**
 * When a whole topic (as far as the editor can see) moves, personal topic preferences move with
 * it; merging into an existing topic keeps the more visible of the two policies.
 */
async function moveTopicPreferences(
  db: Knex,
  uow: UnitOfWork,
  viewer: ChannelViewer,
  plan: Plan,
  mode: PropagateMode,
  moved: MessageRow[],
  targetTopicHadMessages: boolean,
  usersLosingAccess: Set<number>,
): Promise<void> {
  const orig = plan.origStream!;
  const target = plan.targetStream!;
  const origTopic = plan.message.topic;
  const targetTopic = plan.newTopic ?? origTopic;
  let movedAll = mode === 'change_all';
  if (!movedAll) {
    const left = db('messages')
      .where('stream_id', orig.id)
      .whereRaw('lower(topic) = lower(?)', [origTopic])
      .whereRaw(
        ...noneOf(
          'id',
          moved.map((m) => m.id),
        ),
      );
    if (!historyVisible(viewer, orig)) left.whereIn('id', (sub) => sub.select('message_id').from('user_messages').where('user_id', viewer.user.id));
    movedAll = (await left.first('id')) === undefined;
  }
  if (!movedAll) return;
  const policies = async (streamId: number, topic: string) =>
    new Map(
      (
        (await db('user_topics').where('stream_id', streamId).whereRaw('lower(topic_name) = lower(?)', [topic]).select('user_id', 'visibility_policy')) as {
          user_id: number;
          visibility_policy: number;
        }[]
      ).map((r) => [r.user_id, r.visibility_policy]),
    );
  const origPolicies = await policies(orig.id, origTopic);
  const targetPolicies = await policies(target.id, targetTopic);
  const losing = [...origPolicies.keys()].filter((id) => target.id !== orig.id && usersLosingAccess.has(id));
  await setVisibilityPolicies(uow, losing, orig.id, origTopic, VisibilityPolicy.INHERIT);
  const users = new Set([...origPolicies.keys(), ...targetPolicies.keys()].filter((id) => !losing.includes(id)));
  for (const userId of users) {
    const from = origPolicies.get(userId) ?? VisibilityPolicy.INHERIT;
    const to = targetPolicies.get(userId) ?? VisibilityPolicy.INHERIT;
    if (from !== VisibilityPolicy.INHERIT)
      await setVisibilityPolicies(uow, [userId], orig.id, origTopic, VisibilityPolicy.INHERIT, { skipMutedTopicsEvent: true });
    let next: number = from;
    if (targetTopicHadMessages) {
      if (from === to) next = from;
      else if (from === VisibilityPolicy.UNMUTED || to === VisibilityPolicy.UNMUTED) next = VisibilityPolicy.UNMUTED;
      else next = VisibilityPolicy.INHERIT;
    }
    if (next === to) continue;
    await setVisibilityPolicies(uow, [userId], target.id, targetTopic, next);
  }
}
