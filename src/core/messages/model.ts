import type { Knex } from 'knex';
import { anyOf } from '../../db/lists';

/**
 * Message rows as the code reads them. Messages are read and written with knex directly (not
 * objection models): the hot paths (sending, fetching a page) are a handful of set-based queries.
 */
export interface MessageRow {
  id: number;
  realm_id: number;
  sender_id: number;
  recipient_id: number;
  stream_id: number | null;
  /** Participants of a direct message, ascending ids joined by commas. */
  dm_key: string | null;
  topic: string;
  content: string;
  rendered_content: string;
  sending_client: string;
  date_sent: Date;
  last_edit_time: Date | null;
  has_link: boolean;
  has_image: boolean;
  has_attachment: boolean;
}

export const MESSAGE_COLUMNS = [
  'id',
  'realm_id',
  'sender_id',
  'recipient_id',
  'stream_id',
  'dm_key',
  'topic',
  'content',
  'rendered_content',
  'sending_client',
  'date_sent',
  'last_edit_time',
  'has_link',
  'has_image',
  'has_attachment',
] as const;

export const qualified = (table: string, columns: readonly string[]) => columns.map((c) => `${table}.${c}`);

export interface MessageEditRow {
  id: number;
  message_id: number;
  user_id: number | null;
  edit_time: Date;
  prev_content: string | null;
  prev_rendered_content: string | null;
  prev_topic: string | null;
  topic: string | null;
  prev_stream_id: number | null;
  stream_id: number | null;
}

export const isChannelMessage = (m: Pick<MessageRow, 'stream_id'>) => m.stream_id !== null;

export const unixTime = (date: Date) => Math.floor(new Date(date).getTime() / 1000);

export function dmKey(userIds: Iterable<number>): string {
  return [...new Set(userIds)].sort((a, b) => a - b).join(',');
}

export function dmParticipants(key: string): number[] {
  return key.split(',').map(Number);
}

export async function messagesByIds(db: Knex, ids: number[]): Promise<MessageRow[]> {
  if (ids.length === 0) return [];
  return db('messages')
    .whereRaw(...anyOf('id', ids))
    .select(MESSAGE_COLUMNS)
    .orderBy('id');
}

/** The recipient id of a channel, created on its first message. */
const channelRecipients = new WeakMap<Knex, Map<number, number>>();

/**
 * channelRecipientId, remembered per database (`knex`, not a transaction): a channel's recipient
 * row never changes once it exists. Only rows found already stored are remembered.
 */
export async function cachedChannelRecipientId(knex: Knex, db: Knex, realmId: number, streamId: number): Promise<number> {
  let known = channelRecipients.get(knex);
  if (!known) channelRecipients.set(knex, (known = new Map()));
  const cached = known.get(streamId);
  if (cached !== undefined) return cached;
  const found = await db('message_recipients').where({ stream_id: streamId }).first('id');
  if (found) {
    known.set(streamId, found.id);
    return found.id;
  }
  return channelRecipientId(db, realmId, streamId);
}

export async function channelRecipientId(db: Knex, realmId: number, streamId: number): Promise<number> {
  const found = await db('message_recipients').where({ stream_id: streamId }).first('id');
  if (found) return found.id;
  await db.raw('INSERT INTO message_recipients (realm_id, stream_id) VALUES (?, ?) ON CONFLICT (stream_id) WHERE stream_id IS NOT NULL DO NOTHING', [
    realmId,
    streamId,
  ]);
  return (await db('message_recipients').where({ stream_id: streamId }).first('id')).id;
}

/** The recipient id of a direct-message conversation among these users, created on first use. */
export async function directRecipientId(db: Knex, realmId: number, participantIds: number[]): Promise<number> {
  const key = dmKey(participantIds);
  const found = await db('message_recipients').where({ realm_id: realmId, dm_key: key }).first('id');
  if (found) return found.id;
  await db.raw(
    'INSERT INTO message_recipients (realm_id, dm_key, user_ids) VALUES (?, ?, ?) ON CONFLICT (realm_id, dm_key) WHERE dm_key IS NOT NULL DO NOTHING',
    [realmId, key, dmParticipants(key)],
  );
  return (await db('message_recipients').where({ realm_id: realmId, dm_key: key }).first('id')).id;
}

/** An existing conversation's recipient id, or null (never creates one). */
export async function findDirectRecipientId(db: Knex, realmId: number, participantIds: number[]): Promise<number | null> {
  const found = await db('message_recipients')
    .where({ realm_id: realmId, dm_key: dmKey(participantIds) })
    .first('id');
  return found ? found.id : null;
}
