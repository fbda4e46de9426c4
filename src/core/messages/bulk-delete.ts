import type { AppDeps } from '../deps';
import type { UnitOfWork } from '../../db/unit-of-work';
import type { ChannelViewer } from '../channels/access';
import { Stream } from '../channels/model';
import { anyOf } from '../../db/lists';
import { queueRemovalsForDeleted } from '../notifications/queue';
import { releaseDeletedMessages } from '../uploads/claims';
import { bulkAccessMessages, eventRecipientsForMessages } from './access';
import { refreshFirstMessageId } from './delete';
import { deleteMessageEvent } from './events';
import { MESSAGE_COLUMNS, MessageRow } from './model';

/**
 * Deletes messages of any conversations inside the caller's transaction (retention, and the
 * deletions asked for when deactivating a user), announcing them as Zulip does: one
 * `delete_message` event per conversation (a channel topic, or a direct-message conversation),
 * to those who see that conversation. The acting user, if any, hears only of the messages they
 * can access (feature level 457): they may delete direct messages or private channel messages
 * they cannot read, and learn nothing of those.
 */
export async function deleteMessagesInTransaction(uow: UnitOfWork, deps: AppDeps, messageIds: number[], actor: ChannelViewer | null): Promise<number> {
  if (messageIds.length === 0) return 0;
  const db = uow.trx;
  const rows: MessageRow[] = await db('messages')
    .where('realm_id', deps.realmId)
    .whereRaw(...anyOf('id', messageIds))
    .orderBy('id')
    .forUpdate()
    .select(MESSAGE_COLUMNS);
  if (rows.length === 0) return 0;
  const streamIds = [...new Set(rows.map((r) => r.stream_id).filter((id): id is number => id !== null))];
  const streams = new Map((streamIds.length === 0 ? [] : await Stream.query(db).whereRaw(...anyOf('id', streamIds))).map((s) => [s.id, s]));
  const accessible = actor ? new Set((await bulkAccessMessages(db, actor, rows)).map((r) => r.message.id)) : new Set<number>();

  // Who hears of each conversation is settled before its rows go.
  const announcements: { ids: number[]; stream: Stream | undefined; topic: string; recipients: Set<number> }[] = [];
  for (const group of conversations(rows)) {
    const stream = group[0].stream_id === null ? undefined : streams.get(group[0].stream_id);
    const ids = group.map((m) => m.id);
    const recipients = await eventRecipientsForMessages(db, ids, stream);
    announcements.push({ ids, stream, topic: group[0].topic, recipients });
  }

  const ids = rows.map((r) => r.id);
  await removeMessageRows(uow, deps, ids);
  for (const stream of streams.values()) await refreshFirstMessageId(uow, deps, stream, ids);

  for (const { ids: groupIds, stream, topic, recipients } of announcements) {
    const target = stream ? { streamId: stream.id, topic } : null;
    if (actor) recipients.delete(actor.user.id);
    if (recipients.size > 0) uow.emit(deleteMessageEvent(groupIds, target), recipients);
    const seen = actor ? groupIds.filter((id) => accessible.has(id)) : [];
    if (seen.length > 0) uow.emit(deleteMessageEvent(seen, target), [actor!.user.id]);
  }
  return ids.length;
}

/** The rows of deleted messages go, with their pending notifications and their claims on uploads. */
export async function removeMessageRows(uow: UnitOfWork, deps: AppDeps, ids: number[]): Promise<void> {
  const db = uow.trx;
  // user_messages has no foreign key (see its migration): the recipients' rows go explicitly.
  await queueRemovalsForDeleted(db, deps.realmId, ids);
  await db('user_messages')
    .whereRaw(...anyOf('message_id', ids))
    .delete();
  await db('messages')
    .whereRaw(...anyOf('id', ids))
    .delete();
  await releaseDeletedMessages(uow, deps.config, ids);
}

/** Messages grouped by conversation: a channel's topic (any letter case), or a direct-message conversation. */
function conversations(rows: MessageRow[]): MessageRow[][] {
  const groups = new Map<string, MessageRow[]>();
  for (const row of rows) {
    const key = row.stream_id === null ? `dm:${row.dm_key}` : `channel:${row.stream_id}:${row.topic.toLowerCase()}`;
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  return [...groups.values()];
}
