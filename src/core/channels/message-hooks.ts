import type { Knex } from 'knex';

/**
 * What channel rules need to know about messages. Messages are not stored yet, so every channel is
 * empty; the messages feature replaces these bodies.
 */

/** True when every message of the channel is in the empty topic (vacuously true with none). */
export async function channelHasOnlyEmptyTopicMessages(_db: Knex, _realmId: number, _streamId: number): Promise<boolean> {
  return true;
}

/** Messages sent to each channel in the last 28 days, for stream_weekly_traffic. */
export async function recentChannelTraffic(_db: Knex, _realmId: number, streamIds: number[]): Promise<Map<number, number>> {
  return new Map(streamIds.map((id) => [id, 0]));
}
