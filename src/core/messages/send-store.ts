import type { Knex } from 'knex';
import { runPrepared } from '../../db/prepared';
import { WriteBatcher } from '../../db/write-batches';
import type { MessageRow } from './model';

/**
 * The statements storing a sent message: its `messages` row and one `user_messages` row per
 * recipient, in one statement (each statement is a round trip, and one statement is atomic without
 * BEGIN and COMMIT).
 */

/** The `messages` row a send writes; the database gives its id. */
export type NewMessageRow = Omit<MessageRow, 'id' | 'last_edit_time'>;

export interface StoredMessage {
  row: NewMessageRow;
  /** One entry per recipient, sender included, with its flags in `flags`. */
  userIds: number[];
  flags: number[];
}

// Integer arrays go as PostgreSQL array literals: node-postgres's generic conversion escapes every
// element, a cost that grows with the channel.
const intArray = (values: number[]) => `{${values.join(',')}}`;

const INSERT_MESSAGE = `INSERT INTO messages (realm_id, sender_id, recipient_id, stream_id, dm_key, topic, content,
                      rendered_content, sending_client, date_sent, has_link, has_image, has_attachment)`;
const INSERT_RECIPIENTS = `INSERT INTO user_messages (user_id, message_id, realm_id, flags)
                           SELECT u, m.id, ?, f FROM m, unnest(?::int[], ?::int[]) AS t(u, f)`;
const STORE = `WITH m AS (${INSERT_MESSAGE} VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?::timestamptz, ?, ?, ?) RETURNING id),
  um AS (${INSERT_RECIPIENTS}) SELECT id FROM m`;

/** STORE's bindings for a message (the guarded statements add theirs before). */
function messageBindings({ row, userIds, flags }: StoredMessage): unknown[] {
  return [
    row.realm_id,
    row.sender_id,
    row.recipient_id,
    row.stream_id,
    row.dm_key,
    row.topic,
    row.content,
    row.rendered_content,
    row.sending_client,
    // ISO text: node-postgres's Date conversion formats in local time, field by field.
    row.date_sent.toISOString(),
    row.has_link,
    row.has_image,
    row.has_attachment,
    row.realm_id,
    intArray(userIds),
    intArray(flags),
  ];
}

/** Stores a message; returns its id. */
export async function storeMessage(db: Knex, message: StoredMessage): Promise<number> {
  const [row] = await runPrepared(db, 'send:store', { sql: STORE, bindings: messageBindings(message) });
  return Number(row.id);
}

/** A channel message sent on a remembered snapshot (see send-snapshots), with the row it read. */
export interface GuardedMessage {
  message: StoredMessage;
  /** `streams::text` of the channel's row as the snapshot saw it. */
  channelRowText: string;
}

/**
 * STORE, inserting only while the channel's row is as a remembered snapshot saw it (its
 * send_state_version covers the rest of the snapshot).
 */
const STORE_ONE_IF_UNCHANGED = `WITH ok AS (SELECT 1 FROM streams WHERE id = ? AND streams::text = ?),
  m AS (${INSERT_MESSAGE} SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::timestamptz, ?::boolean, ?::boolean, ?::boolean FROM ok RETURNING id),
  um AS (${INSERT_RECIPIENTS}) SELECT id FROM m`;

/**
 * Several messages at once, each stored only if its channel's row is unchanged; ids are taken in
 * the order given. One parameter, JSON, whatever the number of messages, so that it is prepared
 * once. Returns the stored messages' positions in the input (`n`) with their ids.
 */
const STORE_MANY_IF_UNCHANGED = `WITH input AS (
    SELECT * FROM json_to_recordset(?::json) AS i(
      n int, realm_id int, stream_id int, row_text text, sender_id int, recipient_id int, topic text, content text,
      rendered_content text, sending_client text, date_sent timestamptz, has_link boolean, has_image boolean,
      has_attachment boolean, user_ids int[], flags int[])
  ), ok AS (
    -- Sorted in a subquery, which PostgreSQL keeps apart, so that ids follow the input's order.
    SELECT nextval('messages_id_seq') AS id, i.* FROM (
      SELECT i.* FROM input i JOIN streams s ON s.id = i.stream_id AND s::text = i.row_text ORDER BY i.n
    ) i
  ), m AS (
    INSERT INTO messages (id, realm_id, sender_id, recipient_id, stream_id, topic, content, rendered_content,
                          sending_client, date_sent, has_link, has_image, has_attachment)
    SELECT id, realm_id, sender_id, recipient_id, stream_id, topic, content, rendered_content,
           sending_client, date_sent, has_link, has_image, has_attachment FROM ok
  ), um AS (
    INSERT INTO user_messages (user_id, message_id, realm_id, flags)
    SELECT r.u, ok.id, ok.realm_id, r.f FROM ok, unnest(ok.user_ids, ok.flags) AS r(u, f)
  ) SELECT n, id FROM ok`;

/**
 * Stores each message whose channel row is still as its snapshot saw it, and nothing for the
 * others. Returns each message's id, or null where its channel had changed.
 */
async function storeIfUnchanged(db: Knex, items: GuardedMessage[]): Promise<(number | null)[]> {
  if (items.length === 1) {
    // The common case on a quiet server, and on PGlite, which runs one statement at a time in this
    // thread: the single-message statement is cheaper to plan (PGlite cannot keep plans) and to run.
    const [{ message, channelRowText }] = items;
    const bindings = [message.row.stream_id, channelRowText, ...messageBindings(message)];
    const [row] = await runPrepared(db, 'send:store-one-if-unchanged', { sql: STORE_ONE_IF_UNCHANGED, bindings });
    return [row ? Number(row.id) : null];
  }
  // The columns under their own names (json_to_recordset ignores the rest).
  const input = items.map(({ message: { row, userIds, flags }, channelRowText }, n) => ({
    ...row,
    n,
    row_text: channelRowText,
    date_sent: row.date_sent.toISOString(),
    user_ids: userIds,
    flags,
  }));
  const rows = await runPrepared(db, 'send:store-many-if-unchanged', { sql: STORE_MANY_IF_UNCHANGED, bindings: [JSON.stringify(input)] });
  const ids: (number | null)[] = items.map(() => null);
  for (const row of rows) ids[Number(row.n)] = Number(row.id);
  return ids;
}

// One statement in flight per process: while it runs the next batch gathers, and the batches'
// savings outweighed a second connection's parallelism (bench/README.md has the figures). Batches
// are bounded by the rows they write; a message to a large channel, which would gain nothing from
// sharing a statement and would hold up the others, is written alone at once.
const MAX_IN_FLIGHT = 1;
const MAX_ROWS = 2_000;
const ALONE_FROM_ROWS = 500;

const batchers = new WeakMap<Knex, WriteBatcher<GuardedMessage, number | null>>();

/**
 * storeIfUnchanged for one message. On the pool (`pooled`: `db` is the process's knex), messages
 * sent at the same moment share statements (see WriteBatcher); in a transaction it runs alone.
 * When a shared statement fails, each of its messages gets the error; a send that sees an error on
 * a remembered snapshot tries again on a fresh read, on its own.
 */
export function storeIfChannelUnchanged(db: Knex, pooled: boolean, item: GuardedMessage): Promise<number | null> {
  if (!pooled || item.message.userIds.length >= ALONE_FROM_ROWS) return storeIfUnchanged(db, [item]).then(([id]) => id);
  let batcher = batchers.get(db);
  if (!batcher) {
    const limits = { maxInFlight: MAX_IN_FLIGHT, maxWeight: MAX_ROWS, weigh: (m: GuardedMessage) => m.message.userIds.length + 1 };
    batchers.set(db, (batcher = new WriteBatcher((items) => storeIfUnchanged(db, items), limits)));
  }
  return batcher.submit(item);
}

/** How many statements stored how many messages through storeIfChannelUnchanged's sharing. */
export function sharedStoreStats(db: Knex): { writes: number; items: number } {
  return { ...(batchers.get(db)?.stats ?? { writes: 0, items: 0 }) };
}
