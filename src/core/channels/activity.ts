import type { AppDeps } from '../deps';
import { inTransaction } from '../../db/unit-of-work';
import { channelAudience, RealmUsers } from './audience';
import { streamUpdate } from './events';
import { Stream } from './model';

/**
 * Channels that have had no message for INACTIVE_AFTER_DAYS lose `is_recently_active` (Zulip's
 * daily update_stream_active_status_for_realm), which clients with `demote_inactive_streams` use to
 * push them down the list; the next message sets it back (messages/send.ts). Everyone who can see
 * a channel exists hears of either change as a `stream` update. The sweep is one conditional
 * statement, so processes sweeping at the same time mark (and announce) each channel once.
 */
export const INACTIVE_AFTER_DAYS = 180;

const DAY_MS = 24 * 3600 * 1000;

/** Marks the organization's channels without a message since the cutoff inactive; returns their ids. */
export async function markInactiveChannels(deps: AppDeps, now = new Date()): Promise<number[]> {
  const cutoff = new Date(now.getTime() - INACTIVE_AFTER_DAYS * DAY_MS);
  return inTransaction(deps, deps.realmId, async (uow) => {
    const db = uow.trx;
    const result = await db.raw(
      `UPDATE streams s SET is_recently_active = false
        WHERE s.realm_id = ? AND s.is_recently_active
          AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.stream_id = s.id AND m.date_sent >= ?)
        RETURNING s.*`,
      [deps.realmId, cutoff],
    );
    const streams = (result.rows as Record<string, unknown>[]).map((row) => Stream.fromDatabaseJson(row)).sort((a, b) => a.id - b.id);
    if (streams.length === 0) return [];
    const users = await RealmUsers.load(db, deps.realmId);
    for (const stream of streams) uow.emit(streamUpdate(stream, 'is_recently_active', false), await channelAudience(db, stream, users));
    return streams.map((s) => s.id);
  });
}
