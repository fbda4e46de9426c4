import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { inSingleStatement, inTransaction, UnitOfWork } from '../../db/unit-of-work';
import { errors } from '../../errors';
import { accessChannelById, loadViewer } from '../channels/access';
import type { User } from '../users/model';
import { bulkAccessMessages, invalidMessage } from './access';
import { flagsEvent } from './events';
import { flipFlagOfExistingRows } from './flag-writer';
import { fetchWindow } from './fetch';
import { FLAG_BITS, FlagName, HISTORICAL_FLAGS, isApiFlag, NON_EDITABLE_FLAGS } from './flags';
import { messagesByIds } from './model';
import { NarrowTerm } from './narrow-parse';
import { canonicalTopic } from './topics';
import { loadRawUnread, unreadMessageDetails } from './unread';
import { anyOf, listParam } from '../../db/lists';

/**
 * Personal message flags (POST /messages/flags and friends). Only read, starred and collapsed are
 * the user's to change. Starring (or otherwise flagging) a message one can see but never received
 * creates a `historical` row for it. Unread messages must be in subscribed channels, so marking
 * messages unread skips channels the user is not subscribed to and reports them.
 */
export function checkFlagOperation(flag: string, op: string): { bit: number; adding: boolean } {
  if (!isApiFlag(flag)) throw errors.badRequest(`Invalid flag: '${flag}'`);
  if (NON_EDITABLE_FLAGS.has(flag as FlagName)) throw errors.badRequest(`Flag not editable: '${flag}'`);
  if (op !== 'add' && op !== 'remove') throw errors.badRequest(`Invalid message flag operation: '${op}'`);
  return { bit: FLAG_BITS[flag as FlagName], adding: op === 'add' };
}

export interface FlagUpdateResult {
  /** Messages whose flag changed. */
  changed: number[];
  /** For read/remove: channels skipped because the user is not subscribed. */
  ignoredChannels: number[];
}

/** Applies a flag change to messages inside a unit of work and queues the event. */
export async function applyFlagChange(uow: UnitOfWork, deps: AppDeps, user: User, op: string, flag: string, messageIds: number[]): Promise<FlagUpdateResult> {
  const { bit, adding } = checkFlagOperation(flag, op);
  const db = uow.trx;
  let targets = [...new Set(messageIds)];
  const ignoredChannels = new Set<number>();
  if (flag === 'read' && !adding && targets.length > 0) {
    const outside: { id: number; stream_id: number }[] = await db('messages as m')
      .whereRaw(...anyOf('m.id', targets))
      .whereNotNull('m.stream_id')
      .whereNotExists((q) =>
        q.select(db.raw('1')).from('subscriptions as s').where({ 's.user_id': user.id, 's.active': true }).whereRaw('s.stream_id = m.stream_id'),
      )
      .select('m.id', 'm.stream_id');
    const skip = new Set(outside.map((r) => r.id));
    for (const row of outside) ignoredChannels.add(row.stream_id);
    targets = targets.filter((id) => !skip.has(id));
  }

  const rows: { message_id: number; flags: number }[] =
    targets.length === 0
      ? []
      : await db('user_messages')
          .where('user_id', user.id)
          .whereRaw(...anyOf('message_id', targets))
          .orderBy('message_id')
          .forUpdate()
          .select('message_id', 'flags');
  const current = new Map(rows.map((r) => [r.message_id, r.flags]));
  const target = adding ? bit : 0;
  const changed = targets.filter((id) => ((current.get(id) ?? HISTORICAL_FLAGS) & bit) !== target);

  if ((HISTORICAL_FLAGS & bit) !== target) {
    // Messages the user can see but never received get a row now; they must be visible.
    const missing = changed.filter((id) => !current.has(id));
    if (missing.length > 0) {
      const viewer = await loadViewer(db, user);
      const messages = (await messagesByIds(db, missing)).filter((m) => m.realm_id === user.realm_id);
      const accessible = await bulkAccessMessages(db, viewer, messages);
      if (accessible.length !== missing.length) throw invalidMessage();
      const flags = adding ? HISTORICAL_FLAGS | bit : HISTORICAL_FLAGS & ~bit;
      await db.raw(
        // Read with a key-share lock, so a message deleted meanwhile cannot be left with a row.
        'INSERT INTO user_messages (user_id, message_id, realm_id, flags) SELECT ?, id, ?, ? FROM messages WHERE id = ANY(?::int[]) FOR KEY SHARE ON CONFLICT DO NOTHING',
        [user.id, deps.realmId, flags, missing],
      );
    }
  }
  const existing = changed.filter((id) => current.has(id));
  if (existing.length > 0) {
    await db('user_messages')
      .where('user_id', user.id)
      .whereRaw(...anyOf('message_id', existing))
      .update({ flags: adding ? db.raw('flags | ?', [bit]) : db.raw('flags & ~?::int', [bit]) });
  }

  const extra: Record<string, unknown> = {};
  if (flag === 'read' && !adding) extra.message_details = unreadMessageDetails(await loadRawUnread(db, user.id, changed), user.id);
  uow.emit(flagsEvent(adding ? 'add' : 'remove', flag, changed, extra), [user.id]);
  return { changed, ignoredChannels: [...ignoredChannels].sort((a, b) => a - b) };
}

export async function updateMessageFlags(deps: AppDeps, user: User, op: string, flag: string, messageIds: number[]) {
  const { bit, adding } = checkFlagOperation(flag, op);
  const result = changesOnlyExistingRows(flag, bit, adding)
    ? await inSingleStatement(deps, deps.realmId, (uow) => flipExistingRows(uow, user, flag, bit, adding, messageIds))
    : await inTransaction(deps, deps.realmId, (uow) => applyFlagChange(uow, deps, user, op, flag, messageIds));
  const out: Record<string, unknown> = { messages: result.changed };
  if (flag === 'read' && op === 'remove') out.ignored_because_not_subscribed_channels = result.ignoredChannels;
  return out;
}

/**
 * Whether a flag change leaves messages without a row alone (their historical flags already say
 * what the change asks, as for marking read) and needs nothing but the changed ids: then it is one
 * statement. Marking unread checks subscriptions and reports message details, and starring a
 * message never received creates its row, so those take the transaction.
 */
function changesOnlyExistingRows(flag: string, bit: number, adding: boolean): boolean {
  return (HISTORICAL_FLAGS & bit) === (adding ? bit : 0) && !(flag === 'read' && !adding);
}

/**
 * The most frequent flag change (a client marking what it shows as read) without a transaction:
 * one UPDATE that changes only rows whose flag differs, shared with other requests arriving at the
 * same time (see flag-writer.ts), so each change is reported once.
 */
async function flipExistingRows(uow: UnitOfWork, user: User, flag: string, bit: number, adding: boolean, messageIds: number[]): Promise<FlagUpdateResult> {
  const targets = [...new Set(listParam(messageIds) as number[])];
  const changed = targets.length === 0 ? [] : await flipFlagOfExistingRows(uow.trx, user.id, bit, adding, targets);
  uow.emit(flagsEvent(adding ? 'add' : 'remove', flag, changed), [user.id]);
  return { changed, ignoredChannels: [] };
}

export const MAX_MESSAGES_PER_UPDATE = 5000;

export interface NarrowFlagRequest {
  anchor: number | null;
  includeAnchor: boolean;
  numBefore: number;
  numAfter: number;
  narrow: NarrowTerm[];
  op: string;
  flag: string;
}

/** POST /messages/flags/narrow: the flag change over a window of a narrow (at most 5000 messages). */
export async function updateMessageFlagsForNarrow(deps: AppDeps, user: User, request: NarrowFlagRequest) {
  checkFlagOperation(request.flag, request.op);
  if (request.numBefore > 0 && request.numAfter > 0 && !request.includeAnchor) {
    throw errors.badRequest('The anchor can only be excluded at an end of the range');
  }
  const numBefore = Math.min(request.numBefore, Math.max(MAX_MESSAGES_PER_UPDATE - request.numAfter, MAX_MESSAGES_PER_UPDATE / 2));
  const numAfter = Math.min(request.numAfter, MAX_MESSAGES_PER_UPDATE - numBefore);
  const window = await fetchWindow(deps, deps.knex, user, request.narrow, {
    anchor: request.anchor,
    includeAnchor: request.includeAnchor,
    numBefore,
    numAfter,
  });
  const ids = window.rows.map((r) => r.id);
  const result = await inTransaction(deps, deps.realmId, (uow) => applyFlagChange(uow, deps, user, request.op, request.flag, ids));
  const out: Record<string, unknown> = {
    processed_count: ids.length,
    updated_count: result.changed.length,
    first_processed_id: ids.length > 0 ? ids[0] : null,
    last_processed_id: ids.length > 0 ? ids[ids.length - 1] : null,
    found_oldest: window.foundOldest,
    found_newest: window.foundNewest,
  };
  if (request.flag === 'read' && request.op === 'remove') out.ignored_because_not_subscribed_channels = result.ignoredChannels;
  return out;
}

async function markRead(uow: UnitOfWork, user: User, where: (q: Knex.QueryBuilder) => void): Promise<number[]> {
  const db = uow.trx;
  const query = db('user_messages as um').where('um.user_id', user.id).whereRaw('(um.flags & 1) = 0');
  where(query);
  const ids: number[] = (await query.select('um.message_id').orderBy('um.message_id')).map((r: { message_id: number }) => r.message_id);
  if (ids.length > 0) {
    await db('user_messages')
      .where('user_id', user.id)
      .whereRaw(...anyOf('message_id', ids))
      .update({ flags: db.raw('flags | 1') });
  }
  return ids;
}

/** POST /mark_all_as_read. */
export async function markAllAsRead(deps: AppDeps, user: User): Promise<{ complete: boolean }> {
  await inTransaction(deps, deps.realmId, async (uow) => {
    await uow
      .trx('user_messages')
      .where('user_id', user.id)
      .whereRaw('(flags & 1) = 0')
      .update({ flags: uow.trx.raw('flags | 1') });
    uow.emit({ ...flagsEvent('add', 'read', []), all: true }, [user.id]);
  });
  return { complete: true };
}

/** POST /mark_stream_as_read. */
export async function markChannelAsRead(deps: AppDeps, user: User, streamId: number): Promise<void> {
  await inTransaction(deps, deps.realmId, async (uow) => {
    const stream = await accessChannelById(uow.trx, await loadViewer(uow.trx, user), streamId, { requireActive: false });
    const ids = await markRead(uow, user, (q) => q.whereIn('um.message_id', (sub) => sub.select('id').from('messages').where('stream_id', stream.id)));
    if (ids.length > 0) uow.emit(flagsEvent('add', 'read', ids), [user.id]);
  });
}

/** POST /mark_topic_as_read: the display name of the empty topic stands for it. */
export async function markTopicAsRead(deps: AppDeps, user: User, streamId: number, topicName: string): Promise<void> {
  await inTransaction(deps, deps.realmId, async (uow) => {
    const db = uow.trx;
    const stream = await accessChannelById(db, await loadViewer(db, user), streamId, { requireActive: false });
    const topic = canonicalTopic(topicName);
    const inTopic = (sub: Knex.QueryBuilder) => sub.select('id').from('messages').where('stream_id', stream.id).whereRaw('lower(topic) = lower(?)', [topic]);
    if (topicName !== '') {
      const exists = await db('user_messages').where('user_id', user.id).whereIn('message_id', inTopic).first('message_id');
      if (!exists) throw errors.badRequest(`No such topic '${topic}'`);
    }
    const ids = await markRead(uow, user, (q) => q.whereIn('um.message_id', inTopic));
    if (ids.length > 0) uow.emit(flagsEvent('add', 'read', ids), [user.id]);
  });
}
