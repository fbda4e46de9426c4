import type { Knex } from 'knex';
import { anyOf } from '../../db/lists';

/** What channel rules need to know about messages, answered from the messages table. */

/** True when every message of the channel is in the empty topic (vacuously true with none). */
export async function channelHasOnlyEmptyTopicMessages(db: Knex, realmId: number, streamId: number): Promise<boolean> {
  const other = await db('messages').where({ realm_id: realmId, stream_id: streamId }).whereNot('topic', '').first('id');
  return other === undefined;
}

/** Messages sent to each channel in the last 28 days, for stream_weekly_traffic. */
export async function recentChannelTraffic(db: Knex, realmId: number, streamIds: number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>(streamIds.map((id) => [id, 0]));
  if (streamIds.length === 0) return out;
  const rows: { stream_id: number; n: number | string }[] = await db('messages')
    .where('realm_id', realmId)
    .whereRaw(...anyOf('stream_id', streamIds))
    .where('date_sent', '>', db.raw("now() - interval '28 days'"))
    .groupBy('stream_id')
    .select('stream_id')
    .count('* as n');
  for (const row of rows) out.set(row.stream_id, Number(row.n));
  return out;
}
