import type { Knex } from 'knex';
import type { Config } from '../../config';
import { listParam } from '../../db/lists';
import { encodeChannel, encodeHashComponent } from '../markdown/url';
import { apiEmail, avatarUrl, loadPeople } from '../messages/people';

/** What a notification says about one message: its sender, conversation and content. */
export interface NotifiedMessage {
  id: number;
  senderId: number;
  senderName: string;
  senderEmail: string;
  senderAvatarUrl: string;
  time: Date;
  html: string;
  streamId: number | null;
  streamName: string | null;
  topic: string;
  /** Direct messages: every participant, ascending. */
  dmUserIds: number[];
  /** Direct messages: everyone's names, by id. */
  names: Map<number, string>;
}

/** The messages, with what notifications show; deleted ones are simply absent. */
export async function loadNotifiedMessages(db: Knex, config: Config, realmId: number, ids: number[]): Promise<Map<number, NotifiedMessage>> {
  if (ids.length === 0) return new Map();
  const rows = (
    await db.raw(
      `SELECT m.id, m.sender_id, m.stream_id, m.topic, m.rendered_content, m.date_sent, m.dm_key, s.name AS stream_name
         FROM messages m LEFT JOIN streams s ON s.id = m.stream_id WHERE m.id = ANY(?::int[])`,
      [listParam(ids)],
    )
  ).rows as {
    id: number;
    sender_id: number;
    stream_id: number | null;
    topic: string;
    rendered_content: string;
    date_sent: Date;
    dm_key: string | null;
    stream_name: string | null;
  }[];
  const dmIds = (row: (typeof rows)[number]) => (row.dm_key ? row.dm_key.split(',').map(Number) : []);
  const people = await loadPeople(
    db,
    realmId,
    rows.flatMap((r) => [r.sender_id, ...dmIds(r)]),
  );
  const result = new Map<number, NotifiedMessage>();
  for (const row of rows) {
    const sender = people.get(row.sender_id);
    if (!sender) continue;
    const participants = dmIds(row);
    const avatar = avatarUrl(sender);
    result.set(row.id, {
      id: row.id,
      senderId: row.sender_id,
      senderName: sender.full_name,
      senderEmail: apiEmail(config, sender),
      senderAvatarUrl: avatar.startsWith('/') ? `${config.externalUrl}${avatar}` : avatar,
      time: new Date(row.date_sent),
      html: row.rendered_content,
      streamId: row.stream_id,
      streamName: row.stream_name,
      topic: row.topic,
      dmUserIds: participants,
      names: new Map(participants.map((id) => [id, people.get(id)?.full_name ?? ''])),
    });
  }
  return result;
}

/** The web app's address of the message's conversation. */
export function conversationUrl(config: Config, m: NotifiedMessage, viewerId: number): string {
  if (m.streamId !== null) {
    return `${config.externalUrl}/#narrow/channel/${encodeChannel(m.streamId, m.streamName ?? '')}/topic/${encodeHashComponent(m.topic)}/near/${m.id}`;
  }
  const others = m.dmUserIds.filter((id) => id !== viewerId);
  const ids = others.length === 0 ? [viewerId] : m.dmUserIds;
  const suffix = others.length === 1 ? 'dm' : 'group';
  return `${config.externalUrl}/#narrow/dm/${ids.join(',')}-${suffix}/near/${m.id}`;
}

/** Where a conversation's notifications are grouped: one email per conversation. */
export function conversationKey(m: NotifiedMessage): string {
  return m.streamId !== null ? `s:${m.streamId}:${m.topic.toLowerCase()}` : `d:${m.dmUserIds.join(',')}`;
}
