import type { Knex } from 'knex';
import { RealmEmoji, REALM_EMOJI_COLUMNS } from './model';
import { realmEmojiMap, RealmEmojiDict } from './view';
import { anyOf } from '../../db/lists';
import { isRowId } from '../../db/ids';

/** Every custom emoji of the realm, active or not, keyed by id (the list is public to members). */
export async function listRealmEmoji(db: Knex, realmId: number): Promise<Record<string, RealmEmojiDict>> {
  const rows = await RealmEmoji.query(db).select(REALM_EMOJI_COLUMNS).where('realm_id', realmId).orderBy('id');
  return realmEmojiMap(rows);
}

/** Active custom emoji with the given names (for rendering `:name:`), keyed by name. */
export async function activeRealmEmojiByName(db: Knex, realmId: number, names: string[]): Promise<Map<string, RealmEmoji>> {
  if (names.length === 0) return new Map();
  const rows = await RealmEmoji.query(db)
    .select(REALM_EMOJI_COLUMNS)
    .where({ realm_id: realmId, deactivated: false })
    .whereRaw(...anyOf('name', names, 'text'));
  return new Map(rows.map((row) => [row.name, row]));
}

/** A custom emoji by id, active or not (reactions may refer to deactivated ones). */
export async function findRealmEmoji(db: Knex, realmId: number, id: number): Promise<RealmEmoji | undefined> {
  if (!isRowId(id)) return undefined;
  return RealmEmoji.query(db).select(REALM_EMOJI_COLUMNS).findOne({ realm_id: realmId, id });
}

/** An image file by its stored file name, for serving. */
export async function realmEmojiImage(db: Knex, realmId: number, fileName: string): Promise<{ contentType: string; image: Buffer } | undefined> {
  const row = await RealmEmoji.query(db).select('content_type', 'image').where({ realm_id: realmId, file_name: fileName }).first();
  if (!row?.image || !row.content_type) return undefined;
  return { contentType: row.content_type, image: row.image };
}
