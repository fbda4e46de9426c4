import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { inSingleStatement, inTransaction, UnitOfWork } from '../../db/unit-of-work';
import { isRowId } from '../../db/ids';
import { runPrepared } from '../../db/prepared';
import { ApiError, errors } from '../../errors';
import { accessChannelForPost, channelDoesNotExist, channelWithIdDoesNotExist, ChannelViewer, loadViewer } from '../channels/access';
import { activeSubscriberIds, channelAudience, RealmUsers } from '../channels/audience';
import { streamUpdate } from '../channels/events';
import { cachedSystemGroupIds, holdsGroupSetting } from '../channels/group-settings';
import { isGuestRole } from '../users/roles';
import { realmLinkifiers } from '../linkifiers/cache';
import { Stream } from '../channels/model';
import { realmTopicsPolicy } from '../channels/realm-policy';
import { normalizeMessageContent } from '../markdown';
import type { User } from '../users/model';
import { Addressee, usersByEmails, usersByIds } from './addressee';
import { messageEvent } from './events';
import { defaultReadBySender } from './clients';
import { FLAG_BITS, flagList } from './flags';
import { cachedChannelRecipientId, channelRecipientId, directRecipientId, dmKey, findDirectRecipientId, MessageRow } from './model';
import { apiEmail, PersonRow } from './people';
import { loadRealmMessageSettings, WILDCARD_MENTION_THRESHOLD } from './realm-settings';
import { groupMemberIds, MessageRendering, renderMessageContent } from './render';
import { EMPTY_TOPIC_DISPLAY_NAME, topicForStorage } from './topics';
import { realmString, WideContext, wideMessage } from './view';
import { afterChannelMessageSent, mayChangeTopicPolicies, senderTopicColumns, senderTopicState } from './send-hooks';
import { mayLinkUploads, syncMessageClaims } from '../uploads/claims';
import { settleImagePreviews } from '../uploads/thumbnail-rewrite';
import { checkDirectMessagePermissions } from './direct-permissions';
import { NewMessageRow, storeIfChannelUnchanged, storeMessage, StoredMessage } from './send-store';
import { forgetSendSnapshot, recallSendSnapshot, rememberSendSnapshot, SendSnapshot } from './send-snapshots';
import { mutersOf } from '../muted-users/store';
import { hasMessageSentListeners, listenersFor, MessageSentListener } from './sent-listeners';
import { alertWordIndex } from '../alert-words/store';
import { usersAlertedBy } from '../alert-words/matching';
import { sendOnce } from './send-idempotency';
import { WidgetContent, widgetFromContent } from '../submessages/widget';
import { createWidgetSubmessage } from '../submessages/actions';

/**
 * Sending a message (POST /messages): the addressee is resolved and checked, the content
 * normalized and rendered, the message stored with one `user_messages` row per recipient (flags
 * from mentions; the sender's own copy starts read), and a `message` event published to the
 * recipients, with each one's flags.
 */
export interface SendMessageRequest {
  addressee: Addressee;
  /** Channel messages only; null when the client sent none. */
  topic: string | null;
  content: string;
  /** The sending client's name (from the User-Agent or the `client` parameter). */
  client: string;
  localId?: string;
  queueId?: string;
  /** Whether the sender's copy starts read; by default only from Zulip's interactive clients (clients.ts). */
  readBySender?: boolean;
  /** A client-chosen key: a send repeated with it within a day returns the first message instead (send-idempotency.ts). */
  idempotencyKey?: string;
  /**
   * Messages the server writes itself only: when set, every recipient's copy starts read except
   * those of these users (Zulip's limit_unread_user_ids).
   */
  unreadOnlyFor?: ReadonlySet<number>;
}

export interface SendMessageResult {
  id: number;
  automatic_new_visibility_policy?: number;
}

interface Target {
  stream: Stream | null;
  topic: string;
  /** Direct messages: every participant, sender included. */
  participants: User[];
  recipientId: number;
  /**
   * Channel messages sent through the API: the channel's active subscribers and the sender's state
   * in the topic before this message, read with the channel or remembered (see send-snapshots).
   */
  snapshot?: SendSnapshot;
  /** Whether `snapshot` was remembered rather than read: storing must then check it still holds. */
  recalled?: boolean;
}

/** Thrown when the database no longer holds a recalled snapshot: the send then reads afresh. */
class StaleSnapshot extends Error {
  constructor() {
    super('the channel changed since it was last read');
  }
}

/**
 * The channel a message is addressed to, by id or name, with its active subscribers and the
 * sender's state in the topic read in the same statement (each statement is a round trip on the
 * send path).
 */
async function findChannelForSending(db: Knex, realmId: number, channel: number | string, sender: User, topic: string): Promise<SendSnapshot | undefined> {
  if (typeof channel === 'number' && !isRowId(channel)) return undefined;
  // Plain knex rather than Stream.query(): objection's query building costs more than the rest of
  // this function, and the row becomes a Stream all the same.
  const query = db('streams')
    .select(
      'streams.*',
      db.raw('streams::text AS row_text'),
      db.raw(
        `ARRAY(SELECT s.user_id FROM subscriptions s JOIN users u ON u.id = s.user_id
               WHERE s.stream_id = streams.id AND s.active AND u.is_active) AS active_subscriber_ids`,
      ),
      ...senderTopicColumns(db, sender, topic),
    )
    .where('realm_id', realmId);
  if (typeof channel === 'number') query.where('id', channel);
  else query.whereRaw('lower(name) = lower(?)', [channel.trim()]);
  // Prepared: planning this statement costs PostgreSQL three times what running it does.
  const name = typeof channel === 'number' ? 'send:channel-by-id' : 'send:channel-by-name';
  const [row] = (await runPrepared(db, name, query.limit(1))) as (Record<string, unknown> & { active_subscriber_ids?: number[]; row_text?: string })[];
  if (!row) return undefined;
  const subscriberIds = (row.active_subscriber_ids ?? []).map(Number);
  const rowText = row.row_text!;
  delete row.active_subscriber_ids;
  delete row.row_text;
  const senderTopic = senderTopicState(row);
  return { stream: Stream.fromDatabaseJson(row), rowText, subscriberIds, senderTopic };
}

/** What became of a send's use of remembered snapshots (see send-snapshots). */
interface Attempt {
  /** The snapshot used, if one was remembered rather than read. */
  recalled: { channel: number | string; topic: string } | null;
  /** Whether the message was stored (a send is never repeated after that). */
  stored: boolean;
}

export async function sendMessage(deps: AppDeps, sender: User, request: SendMessageRequest): Promise<SendMessageResult> {
  if (request.idempotencyKey !== undefined) return sendOnce(deps, sender.id, request.idempotencyKey, () => sendChecked(deps, sender, request));
  return sendChecked(deps, sender, request);
}

async function sendChecked(deps: AppDeps, sender: User, request: SendMessageRequest): Promise<SendMessageResult> {
  const attempt: Attempt = { recalled: null, stored: false };
  try {
    return await send(deps, sender, request, attempt);
  } catch (error) {
    // A remembered snapshot may be out of date: whatever failed with one, a store it no longer
    // allowed or any error of the checks, is tried again on what the database holds now.
    if (!attempt.recalled || attempt.stored) throw error;
    forgetSendSnapshot(deps.knex, attempt.recalled.channel, sender.id, attempt.recalled.topic);
    return send(deps, sender, request, null);
  }
}

/** A message that passed every check of a send, ready to be stored. */
interface CheckedSend {
  target: Target;
  prepared: PreparedMessage;
}

/** Every check and preparation of a send, reading on `db`; nothing is written. */
async function checkSend(deps: AppDeps, db: Knex, sender: User, request: SendMessageRequest, attempt: Attempt | null): Promise<CheckedSend> {
  const { addressee } = request;
  if (addressee.type === 'stream') {
    if (addressee.channel === null) throw errors.badRequest('Missing channel');
    if (request.topic === null) throw errors.badRequest('Missing topic');
  } else if ((addressee.userIds ?? addressee.emails ?? []).length === 0) {
    throw errors.badRequest('Message must have recipients');
  }
  let viewer: Promise<ChannelViewer> | null = null;
  const getViewer = () => (viewer ??= loadViewer(db, sender));
  const directUsers = addressee.type === 'private' ? await resolveDirectRecipients(deps, db, sender, addressee) : [];
  const content = normalizeMessageContent(request.content);
  const target =
    addressee.type === 'stream'
      ? await channelTarget(deps, db, sender, addressee.channel!, request.topic!, getViewer, attempt)
      : await directTarget(deps, db, sender, directUsers);
  const rendering = await renderMessageContent(db, deps, content, getViewer);
  const prepared = await prepareMessage(deps, db, sender, target, content, rendering, request, getViewer);
  return { target, prepared };
}

/** One try at sending; `attempt` is null when nothing remembered may be used. */
async function send(deps: AppDeps, sender: User, request: SendMessageRequest, attempt: Attempt | null): Promise<SendMessageResult> {
  const { addressee } = request;
  // Everything is read first, on the pool: under read committed each statement sees the latest
  // commits whether or not it runs in a transaction, so this changes no answer.
  const { target, prepared } = await checkSend(deps, deps.knex, sender, request, attempt);
  // Bots' messages trigger nothing (no loops between bots), as in Zulip.
  const sent = { sender, stream: target.stream, topic: target.topic, participants: target.participants, mentioned: prepared.mentioned };
  const reactions: MessageSentListener[] = !sender.is_bot && hasMessageSentListeners() ? await listenersFor(deps, sent) : [];
  // Most messages need one write, the statement storing them, which is atomic by itself: they
  // skip the BEGIN and COMMIT round trips. A channel's first message, a topic policy change, a
  // mention or a reaction to the message (an outgoing-webhook call) also write elsewhere, in one
  // transaction with the message.
  const alsoWrites =
    reactions.length > 0 ||
    mayLinkUploads(prepared.rendering.html) ||
    prepared.widget !== null ||
    (target.stream !== null &&
      (needsChannelActivation(target.stream) ||
        mayChangeTopicPolicies(sender, target.snapshot?.senderTopic ?? null, prepared.mentioned, prepared.recipientIds)));
  const unit = alsoWrites ? inTransaction : inSingleStatement;
  const result = await unit(deps, deps.realmId, async (uow) => {
    const stored = await storeAndPublish(deps, uow, sender, prepared, request, attempt);
    for (const listener of reactions) await listener.write(deps, uow, { ...sent, id: stored.id });
    return stored;
  });
  if (target.snapshot && addressee.type === 'stream') {
    // The sender's state in the topic as this message left it.
    const before = target.snapshot.senderTopic;
    const after = { ...before, policy: result.automatic_new_visibility_policy ?? before.policy, topicExisted: true };
    rememberSendSnapshot(deps.knex, addressee.channel!, sender.id, target.topic, { ...target.snapshot, senderTopic: after });
  }
  return result;
}

/** What a send would store, checked as a send is checked (scheduling a message runs this). */
export interface CheckedMessage {
  streamId: number | null;
  topic: string;
  /** Direct messages: every participant, sender included. */
  participantIds: number[];
  content: string;
  renderedContent: string;
}

/** Runs every check of a send, reading on `db`, without storing anything: the errors are the send's. */
export async function checkMessage(deps: AppDeps, db: Knex, sender: User, request: SendMessageRequest): Promise<CheckedMessage> {
  const { target, prepared } = await checkSend(deps, db, sender, request, null);
  return {
    streamId: target.stream?.id ?? null,
    topic: target.topic,
    participantIds: target.participants.map((u) => u.id),
    content: prepared.content,
    renderedContent: prepared.rendering.html,
  };
}

/**
 * A send with every check, inside the caller's transaction: its reads, its writes and its events
 * commit (or roll back) with the caller's other work.
 */
export async function sendMessageWithin(deps: AppDeps, uow: UnitOfWork, sender: User, request: SendMessageRequest): Promise<SendMessageResult> {
  const { prepared } = await checkSend(deps, uow.trx, sender, request, null);
  return storeAndPublish(deps, uow, sender, prepared, request);
}

/** Where a message the server writes itself goes: a channel topic, or a direct conversation. */
export type InternalDestination = { stream: Stream; topic: string } | { users: User[] };

/**
 * A message the server writes itself, as one of its bots (see core/system-bots), inside the
 * caller's transaction: no permission checks apply, and its events go out with the caller's.
 */
export async function sendInternalMessage(
  deps: AppDeps,
  uow: UnitOfWork,
  sender: User,
  to: InternalDestination,
  content: string,
  options: Pick<SendMessageRequest, 'unreadOnlyFor'> = {},
): Promise<number> {
  const db = uow.trx;
  let viewer: Promise<ChannelViewer> | null = null;
  // The server's bots belong to no organization; they render as a plain member of this one would.
  const getViewer = () => (viewer ??= loadViewer(db, { ...sender, realm_id: deps.realmId } as User));
  let target: Target;
  let addressee: Addressee;
  if ('stream' in to) {
    const topic = topicForStorage(to.topic);
    target = { stream: to.stream, topic, participants: [], recipientId: await channelRecipientId(db, deps.realmId, to.stream.id) };
    addressee = { type: 'stream', channel: to.stream.id };
  } else {
    target = await directTarget(deps, db, sender, to.users);
    addressee = { type: 'private', userIds: to.users.map((u) => u.id), emails: null };
  }
  const text = normalizeMessageContent(content);
  const rendering = await renderMessageContent(db, deps, text, getViewer);
  const request: SendMessageRequest = { addressee, topic: target.topic, content: text, client: 'Internal', unreadOnlyFor: options.unreadOnlyFor };
  const prepared = await prepareMessage(deps, db, sender, target, text, rendering, request, getViewer);
  return (await storeAndPublish(deps, uow, sender, prepared, request)).id;
}

async function resolveDirectRecipients(deps: AppDeps, db: Knex, sender: User, addressee: Extract<Addressee, { type: 'private' }>): Promise<User[]> {
  if (addressee.userIds) return usersByIds(db, deps.realmId, addressee.userIds);
  const { users, unknown } = await usersByEmails(db, deps.config, deps.realmId, sender, addressee.emails ?? []);
  if (unknown !== null) throw errors.badRequest(`Invalid email '${unknown}'`);
  return users;
}

/**
 * The topic rules of a channel (Zulip's topics_policy) for a message landing in `topic`. The
 * organization's policy (which only restricts the empty topic) is read only when it can matter.
 */
export async function checkTopicsPolicy(db: Knex, realmId: number, stream: Stream, topic: string): Promise<void> {
  const inherits = stream.topics_policy === 'inherit';
  if (inherits && topic !== '') return;
  const policy = inherits ? await realmTopicsPolicy(db, realmId) : stream.topics_policy;
  if (topic === '' && policy === 'disable_empty_topic') {
    throw errors.badRequest(`Sending messages to the ${EMPTY_TOPIC_DISPLAY_NAME} is not allowed in this channel.`);
  }
  if (topic !== '' && policy === 'empty_topic_only') {
    throw errors.badRequest(`Only the ${EMPTY_TOPIC_DISPLAY_NAME} topic is allowed in this channel.`);
  }
}

/** Starting a topic needs can_create_topic_group (by default everyone holds it). */
export async function checkCanCreateTopic(db: Knex, viewer: ChannelViewer, stream: Stream, topic: string): Promise<void> {
  if (stream.can_create_topic_group === viewer.systemGroups['role:everyone']) return;
  if (holdsGroupSetting(viewer.user, viewer.groupIds, stream.can_create_topic_group)) return;
  const exists = await db('messages').where('stream_id', stream.id).whereRaw('lower(topic) = lower(?)', [topic]).first('id');
  if (!exists) throw errors.badRequest('You do not have permission to create new topics in this channel.');
}

async function channelTarget(
  deps: AppDeps,
  db: Knex,
  sender: User,
  channel: number | string,
  rawTopic: string,
  getViewer: () => Promise<ChannelViewer>,
  attempt: Attempt | null,
): Promise<Target> {
  // The topic is needed for the lookup; an invalid one is reported after the channel's errors.
  let topic = '';
  let topicError: unknown = null;
  try {
    topic = topicForStorage(rawTopic);
  } catch (error) {
    topicError = error;
  }
  const recalled = attempt && !topicError ? recallSendSnapshot(deps.knex, channel, sender.id, topic) : undefined;
  if (attempt && recalled) attempt.recalled = { channel, topic };
  const found = recalled ?? (await findChannelForSending(db, deps.realmId, channel, sender, topic));
  if (!found) throw typeof channel === 'number' ? channelWithIdDoesNotExist(channel) : channelDoesNotExist(channel);
  const { stream } = found;
  // Most messages go to channels open to the sender, where the sender's groups and subscriptions
  // do not matter: those skip loading them.
  const everyone = (await cachedSystemGroupIds(deps.knex, db, deps.realmId))['role:everyone'];
  const open =
    !stream.deactivated && stream.can_send_message_group === everyone && (stream.is_web_public || (!stream.invite_only && !isGuestRole(sender.role)));
  if (!open) await accessChannelForPost(db, await getViewer(), stream);
  if (topicError) throw topicError;
  await checkTopicsPolicy(db, deps.realmId, stream, topic);
  if (stream.can_create_topic_group !== everyone) await checkCanCreateTopic(db, await getViewer(), stream, topic);
  const recipientId = await cachedChannelRecipientId(deps.knex, db, deps.realmId, stream.id);
  return { stream, topic, participants: [], recipientId, snapshot: found, recalled: recalled !== undefined };
}

async function directTarget(deps: AppDeps, db: Knex, sender: User, recipients: User[]): Promise<Target> {
  for (const user of recipients) {
    if (!user.is_active) throw errors.badRequest(`'${apiEmail(deps.config, user)}' is no longer using Zulip.`);
  }
  const participants = [sender, ...recipients.filter((u) => u.id !== sender.id)];
  const participantIds = participants.map((u) => u.id);
  await checkDirectMessagePermissions(deps, db, sender, recipients, async () => {
    const existing = await findDirectRecipientId(db, deps.realmId, participantIds);
    return existing !== null && (await db('messages').where('recipient_id', existing).first('id')) !== undefined;
  });
  return { stream: null, topic: '', participants, recipientId: await directRecipientId(db, deps.realmId, participantIds) };
}

/** Senders of, and reactors to, the topic's messages: who `@**topic**` reaches. */
export async function topicParticipantIds(db: Knex, streamId: number, topic: string): Promise<Set<number>> {
  const result = await db.raw(
    `SELECT sender_id AS user_id FROM messages WHERE stream_id = ? AND lower(topic) = lower(?)
     UNION
     SELECT r.user_id FROM reactions r JOIN messages m ON m.id = r.message_id WHERE m.stream_id = ? AND lower(m.topic) = lower(?)`,
    [streamId, topic, streamId, topic],
  );
  return new Set((result.rows as { user_id: number }[]).map((r) => Number(r.user_id)));
}

async function checkWildcardMentions(
  db: Knex,
  deps: AppDeps,
  getViewer: () => Promise<ChannelViewer>,
  subscriberCount: number,
  topicParticipants: Set<number> | null,
  rendering: MessageRendering,
): Promise<void> {
  const { streamWildcard, topicWildcard } = rendering.mentions;
  const large = streamWildcard ? subscriberCount > WILDCARD_MENTION_THRESHOLD : (topicParticipants?.size ?? 0) > WILDCARD_MENTION_THRESHOLD;
  if (!(streamWildcard || topicWildcard) || !large) return;
  const viewer = await getViewer();
  const settings = await loadRealmMessageSettings(db, deps.realmId, viewer.systemGroups);
  if (holdsGroupSetting(viewer.user, viewer.groupIds, settings.groups.can_mention_many_users_group)) return;
  if (streamWildcard) {
    throw new ApiError('STREAM_WILDCARD_MENTION_NOT_ALLOWED', 'You do not have permission to use channel wildcard mentions in this channel.');
  }
  throw new ApiError('TOPIC_WILDCARD_MENTION_NOT_ALLOWED', 'You do not have permission to use topic wildcard mentions in this topic.');
}

/** A message ready to be stored: who receives it, with which flags (everything sending reads). */
interface PreparedMessage {
  target: Target;
  content: string;
  rendering: MessageRendering;
  recipientIds: Set<number>;
  mentioned: Set<number>;
  rows: { userId: number; flags: number }[];
  realmStr: string;
  /** The poll or to-do list the content makes, stored as the message's first submessage. */
  widget: WidgetContent | null;
}

async function prepareMessage(
  deps: AppDeps,
  db: Knex,
  sender: User,
  target: Target,
  content: string,
  rendering: MessageRendering,
  request: SendMessageRequest,
  getViewer: () => Promise<ChannelViewer>,
): Promise<PreparedMessage> {
  const { stream } = target;
  const recipientIds = new Set<number>(
    stream ? (target.snapshot?.subscriberIds ?? (await activeSubscriberIds(db, stream.id))) : target.participants.filter((u) => u.is_active).map((u) => u.id),
  );
  const subscriberCount = recipientIds.size;
  recipientIds.add(sender.id);

  const { mentions } = rendering;
  const topicParticipants = stream && mentions.topicWildcard ? await topicParticipantIds(db, stream.id, target.topic) : null;
  topicParticipants?.add(sender.id);
  if (stream) await checkWildcardMentions(db, deps, getViewer, subscriberCount, topicParticipants, rendering);
  const mentioned = new Set([...mentions.userIds, ...(await groupMemberIds(db, mentions.groupIds))]);

  // Both from memory in the common case (see TableCache): no statement per send.
  const muters = await mutersOf(deps, sender.id, db);
  const alerted = usersAlertedBy(await alertWordIndex(deps, db), content);

  let base = 0;
  if (!stream) base |= FLAG_BITS.is_private;
  if (mentions.streamWildcard) base |= FLAG_BITS.stream_wildcard_mentioned;
  const readBySender = request.readBySender ?? defaultReadBySender(request.client);
  const rows = [...recipientIds].map((userId) => {
    let flags = base;
    if (userId === sender.id && readBySender) flags |= FLAG_BITS.read;
    // A muted sender's messages arrive read for those who muted them.
    if (muters.size > 0 && userId !== sender.id && muters.has(userId)) flags |= FLAG_BITS.read;
    if (request.unreadOnlyFor && !request.unreadOnlyFor.has(userId)) flags |= FLAG_BITS.read;
    if (alerted.has(userId)) flags |= FLAG_BITS.has_alert_word;
    if (mentioned.has(userId)) flags |= FLAG_BITS.mentioned;
    if (mentions.topicWildcard && topicParticipants?.has(userId)) flags |= FLAG_BITS.topic_wildcard_mentioned;
    return { userId, flags };
  });
  return { target, content, rendering, recipientIds, mentioned, rows, realmStr: await realmString(db, deps), widget: widgetFromContent(content) };
}

async function storeAndPublish(
  deps: AppDeps,
  uow: UnitOfWork,
  sender: User,
  prepared: PreparedMessage,
  request: SendMessageRequest,
  attempt: Attempt | null = null,
): Promise<SendMessageResult> {
  const db = uow.trx;
  const { target, content, rendering, recipientIds, mentioned, rows } = prepared;
  const { stream } = target;
  rendering.html = await settleImagePreviews(db, deps.realmId, rendering.html, { lock: true });
  const fields: NewMessageRow = {
    realm_id: deps.realmId,
    sender_id: sender.id,
    recipient_id: target.recipientId,
    stream_id: stream?.id ?? null,
    dm_key: stream ? null : dmKey(target.participants.map((u) => u.id)),
    topic: target.topic,
    content,
    rendered_content: rendering.html,
    sending_client: request.client.slice(0, 30),
    date_sent: new Date(),
    has_link: rendering.hasLink,
    has_image: rendering.hasImage,
    has_attachment: rendering.hasAttachment,
  };
  const message: StoredMessage = { row: fields, userIds: rows.map((r) => r.userId), flags: rows.map((r) => r.flags) };
  let messageId: number;
  if (target.recalled && target.snapshot) {
    // On the pool (no transaction), messages sent at the same moment may share the statement.
    const stored = await storeIfChannelUnchanged(db, db === deps.knex, { message, channelRowText: target.snapshot.rowText });
    if (stored === null) throw new StaleSnapshot();
    messageId = stored;
  } else {
    messageId = await storeMessage(db, message);
  }
  if (attempt) attempt.stored = true;

  const row: MessageRow = { ...fields, id: messageId, last_edit_time: null };
  const people = new Map<number, PersonRow>([[sender.id, sender as PersonRow], ...target.participants.map((u) => [u.id, u as PersonRow] as const)]);
  const ctx: WideContext = {
    people,
    streamNames: new Map(stream ? [[stream.id, stream.name]] : []),
    reactions: new Map(),
    submessages: new Map(prepared.widget ? [[messageId, [await createWidgetSubmessage(uow, messageId, sender.id, prepared.widget)]]] : []),
    edits: new Map(),
    realmStr: prepared.realmStr,
    editHistoryVisibility: 1,
    linkifiers: await realmLinkifiers(db, deps.realmId),
  };
  const wide = wideMessage(row, ctx, deps.config);

  // One delivery: each recipient's flags ride along per user; the sender's copy may also carry the
  // local echo id. Queues following every public channel get it too, without flags.
  const perUser: Record<number, Record<string, unknown>> = {};
  for (const r of rows) perUser[r.userId] = { flags: flagList(r.flags) };
  if (request.localId !== undefined && request.queueId !== undefined) {
    perUser[sender.id] = { ...perUser[sender.id], local_id: request.localId, sender_queue_id: request.queueId };
  }
  uow.emit(
    messageEvent(wide, []),
    rows.map((r) => r.userId),
    { perUser, publicChannel: stream !== null && !stream.invite_only },
  );

  if (mayLinkUploads(rendering.html)) await syncMessageClaims(uow, sender, messageId, rendering.html);
  const result: SendMessageResult = { id: messageId };
  if (stream) {
    await markChannelActive(db, uow, deps, stream, messageId);
    const policy = await afterChannelMessageSent(deps, uow, sender, stream, target.topic, target.snapshot?.senderTopic ?? null, mentioned, recipientIds);
    if (policy !== null) result.automatic_new_visibility_policy = policy;
  }
  return result;
}

function needsChannelActivation(stream: Stream): boolean {
  return stream.first_message_id === null || !stream.is_recently_active;
}

/** A channel's first message sets first_message_id; a message revives an inactive channel. */
async function markChannelActive(db: Knex, uow: UnitOfWork, deps: AppDeps, stream: Stream, messageId: number): Promise<void> {
  if (!needsChannelActivation(stream)) return;
  const changes: { property: 'first_message_id' | 'is_recently_active'; value: unknown }[] = [];
  if (stream.first_message_id === null) {
    const updated = await db('streams').where({ id: stream.id }).whereNull('first_message_id').update({ first_message_id: messageId });
    if (updated > 0) changes.push({ property: 'first_message_id', value: messageId });
  }
  if (!stream.is_recently_active) {
    const updated = await db('streams').where({ id: stream.id, is_recently_active: false }).update({ is_recently_active: true });
    if (updated > 0) changes.push({ property: 'is_recently_active', value: true });
  }
  if (changes.length === 0) return;
  const audience = await channelAudience(db, stream, await RealmUsers.load(db, deps.realmId));
  for (const change of changes) uow.emit(streamUpdate(stream, change.property, change.value), audience);
}
