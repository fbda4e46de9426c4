import type { Knex } from 'knex';
import { versionFields } from '../version';
import type { ZulipEvent } from './bus';
import { acceptsEvent } from './descriptor';
import type { MemoryQueueStore } from './memory-store';
import type { EventQueues } from './queues';
import type { SavedQueue } from './store';

/**
 * Keeping in-memory event queues across a graceful restart: saved to the database when the server
 * stops, loaded when it starts again. Clients keep their queue ids and lose no event; each restored
 * queue then gets a `restart` event (if it wants that type).
 */

/** Seconds since the epoch when this process started; clients notice a new server by it. */
export const SERVER_GENERATION = Math.floor(Date.now() / 1000);

const TABLE = 'saved_event_queues';

export async function saveQueues(knex: Knex, store: MemoryQueueStore): Promise<number> {
  const queues = store.snapshot();
  await knex.transaction(async (trx) => {
    const ids = queues.map((q) => q.descriptor.id);
    if (ids.length > 0)
      await trx(TABLE)
        // One array parameter, as db/lists.ts's anyOf sends lists (realtime does not import db).
        .whereRaw('?? = ANY(?::text[])', ['queue_id', ids])
        .delete();
    // Batches keep each statement well below parameter limits.
    for (let i = 0; i < queues.length; i += 500) {
      await trx(TABLE).insert(
        queues.slice(i, i + 500).map((q) => ({
          queue_id: q.descriptor.id,
          realm_id: q.descriptor.realmId,
          user_id: q.descriptor.userId,
          data: JSON.stringify(q),
        })),
      );
    }
  });
  return queues.length;
}

/** Loads (and removes) the saved queues of the realm; returns them for the restart notices. */
export async function loadQueues(knex: Knex, realmId: number, store: MemoryQueueStore): Promise<SavedQueue[]> {
  const saved = await knex.transaction(async (trx) => {
    const rows: { data: SavedQueue | string }[] = await trx(TABLE).where('realm_id', realmId).select('data');
    await trx(TABLE).where('realm_id', realmId).delete();
    return rows.map((row) => (typeof row.data === 'string' ? (JSON.parse(row.data) as SavedQueue) : row.data));
  });
  store.restore(saved);
  return saved;
}

export function restartEvent(): ZulipEvent {
  const versions = versionFields();
  return {
    type: 'restart',
    zulip_version: versions.zulip_version,
    zulip_merge_base: versions.zulip_version,
    zulip_feature_level: versions.zulip_feature_level,
    server_generation: SERVER_GENERATION,
  };
}

/** Tells each restored queue that wants it that the server restarted. */
export async function announceRestart(queues: EventQueues, restored: SavedQueue[]): Promise<void> {
  const event = restartEvent();
  for (const { descriptor } of restored) {
    if (acceptsEvent(descriptor, event)) await queues.appendTo(descriptor.id, [event]);
  }
}
