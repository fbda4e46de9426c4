import type { Knex } from 'knex';
import { fromSeconds, insertedId, Row, Tables, toSeconds } from './layout';

/**
 * Tables that copy over column by column: Zulip's table name, Parley's, and the columns whose
 * names differ (Parley's `user_id` is Zulip's `user_profile`, and so on). A column pointing at
 * another row is mapped through that entity's ids; a row whose reference is unknown is dropped.
 */
export type Entity = 'user' | 'stream' | 'field' | 'folder' | 'message';

interface SimpleTable {
  zulip: string;
  table: string;
  renamed: Record<string, string>;
  refs: Record<string, Entity>;
  /** Which entity this table's ids are (recorded for tables imported later). */
  entity?: Entity;
  /** Rows without a realm_id column belong to the organization through their message. */
  byMessage?: boolean;
  /** A user's own data: in a limited export, only consenting users'. */
  personal?: string;
  /** JSON columns holding lists of user ids. */
  userLists?: string[];
}

const TABLES: SimpleTable[] = [
  { zulip: 'zerver_channelfolder', table: 'channel_folders', renamed: { creator_id: 'creator' }, refs: { creator_id: 'user' }, entity: 'folder' },
  { zulip: 'zerver_customprofilefield', table: 'custom_profile_fields', renamed: {}, refs: {}, entity: 'field' },
  {
    zulip: 'zerver_customprofilefieldvalue',
    table: 'custom_profile_field_values',
    renamed: { user_id: 'user_profile', field_id: 'field' },
    refs: { user_id: 'user', field_id: 'field' },
  },
  { zulip: 'zerver_realmfilter', table: 'realm_filters', renamed: {}, refs: {} },
  { zulip: 'zerver_realmplayground', table: 'realm_playgrounds', renamed: {}, refs: {} },
  { zulip: 'zerver_realmdomain', table: 'realm_domains', renamed: {}, refs: {} },
  { zulip: 'zerver_defaultstream', table: 'default_streams', renamed: { stream_id: 'stream' }, refs: { stream_id: 'stream' } },
  {
    zulip: 'zerver_usertopic',
    table: 'user_topics',
    renamed: { user_id: 'user_profile', stream_id: 'stream' },
    personal: 'user_id',
    refs: { user_id: 'user', stream_id: 'stream' },
  },
  {
    zulip: 'zerver_muteduser',
    table: 'muted_users',
    renamed: { user_id: 'user_profile', muted_user_id: 'muted_user' },
    personal: 'user_id',
    refs: { user_id: 'user', muted_user_id: 'user' },
  },
  { zulip: 'zerver_alertword', table: 'alert_words', renamed: { user_id: 'user_profile' }, personal: 'user_id', refs: { user_id: 'user' } },
  {
    zulip: 'zerver_userstatus',
    table: 'user_status',
    renamed: { user_id: 'user_profile', updated_at: 'timestamp' },
    personal: 'user_id',
    refs: { user_id: 'user' },
  },
  { zulip: 'zerver_savedsnippet', table: 'saved_snippets', renamed: { user_id: 'user_profile' }, personal: 'user_id', refs: { user_id: 'user' } },
  { zulip: 'zerver_navigationview', table: 'navigation_views', renamed: { user_id: 'user' }, personal: 'user_id', refs: { user_id: 'user' } },
  // Any account's own storage (Zulip keeps it per bot); in a limited export, only consenting accounts'.
  { zulip: 'zerver_botstoragedata', table: 'bot_storage', renamed: { user_id: 'bot_profile' }, personal: 'user_id', refs: { user_id: 'user' } },
  { zulip: 'zerver_service', table: 'bot_services', renamed: { bot_id: 'user_profile' }, refs: { bot_id: 'user' } },
  {
    zulip: 'zerver_scheduledmessage',
    table: 'scheduled_messages',
    renamed: { sender_id: 'sender', stream_id: 'stream', topic: 'subject', delivered_message_id: 'delivered_message' },
    refs: { sender_id: 'user', stream_id: 'stream', delivered_message_id: 'message', reminder_target_message_id: 'message' },
    personal: 'sender_id',
    userLists: ['participant_ids'],
  },
  {
    zulip: 'zerver_submessage',
    table: 'submessages',
    renamed: { message_id: 'message', sender_id: 'sender' },
    refs: { message_id: 'message', sender_id: 'user' },
    byMessage: true,
  },
];

/** Tables imported before channels (channels name their folder). */
export const EARLY_TABLES = ['zerver_channelfolder'];

const isTimestamp = (type: string) => type.startsWith('timestamp');

/** Every simple table of the organization, in Zulip's names. */
export async function exportRecords(knex: Knex, realmId: number, consenting: number[] | null, messages: Knex.QueryBuilder): Promise<Tables> {
  const out: Tables = {};
  for (const spec of TABLES) {
    const columns = await knex(spec.table).columnInfo();
    const query = spec.byMessage
      ? knex(spec.table).whereIn('message_id', knex('messages').select('id').where('realm_id', realmId))
      : knex(spec.table).where('realm_id', realmId);
    if (spec.byMessage) query.whereIn('message_id', messages.clone());
    if (spec.personal && consenting !== null) query.whereIn(spec.personal, consenting);
    const rows: Row[] = await ('id' in columns ? query.orderBy('id') : query);
    out[spec.zulip] = rows.map((row) => {
      const zRow: Row = { realm: realmId };
      for (const [column, value] of Object.entries(row)) {
        if (column === 'realm_id') continue;
        zRow[spec.renamed[column] ?? column] = value instanceof Date ? toSeconds(value) : value;
      }
      return zRow;
    });
  }
  return out;
}

export type IdMaps = Record<Entity, Map<number, number>>;

/** Loads the simple tables the export holds (only `only` when given), mapping references. */
export async function importRecords(knex: Knex, realmId: number, tables: Tables, ids: IdMaps, only?: string[]): Promise<void> {
  for (const spec of TABLES) {
    if (only && !only.includes(spec.zulip)) continue;
    if (!only && EARLY_TABLES.includes(spec.zulip)) continue;
    const zRows = (tables[spec.zulip] ?? []) as Row[];
    if (zRows.length === 0) continue;
    const columns = await knex(spec.table).columnInfo();
    for (const zRow of zRows) {
      const row: Row = 'realm_id' in columns ? { realm_id: realmId } : {};
      let complete = true;
      for (const [column, info] of Object.entries(columns)) {
        if (column === 'id' || column === 'realm_id') continue;
        const field = spec.renamed[column] ?? column;
        if (!(field in zRow)) continue;
        let value = zRow[field];
        const ref = spec.refs[column];
        if (spec.userLists?.includes(column) && Array.isArray(value)) {
          const mapped = value.map((id) => ids.user.get(id as number));
          if (mapped.includes(undefined)) complete = false;
          value = JSON.stringify(mapped);
        } else if (ref && value !== null) {
          value = ids[ref].get(value as number);
          if (value === undefined) complete = false;
        } else if (isTimestamp(info.type)) value = typeof value === 'number' ? fromSeconds(value) : value;
        else if (info.type === 'jsonb' && value !== null) value = JSON.stringify(value);
        row[column] = value;
      }
      if (!complete) continue;
      if (spec.entity && 'id' in columns) ids[spec.entity].set(zRow.id as number, insertedId(await knex(spec.table).insert(row).returning('id')));
      else await knex(spec.table).insert(row).onConflict().ignore();
    }
  }
}
