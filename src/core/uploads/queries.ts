import type { Knex } from 'knex';
import { anyOf } from '../../db/lists';

export interface AttachmentRow {
  id: number;
  realm_id: number;
  owner_id: number;
  path_id: string;
  file_name: string;
  content_type: string;
  size: number;
  create_time: Date;
}

const COLUMNS = ['id', 'realm_id', 'owner_id', 'path_id', 'file_name', 'content_type', 'size', 'create_time'];

// bigint columns come back as strings from PostgreSQL.
const normalize = (row: AttachmentRow): AttachmentRow => ({ ...row, size: Number(row.size) });

export async function attachmentByPathId(db: Knex, realmId: number, pathId: string): Promise<AttachmentRow | undefined> {
  if (pathId.includes('\0')) return undefined;
  const row = await db('attachments').where({ realm_id: realmId, path_id: pathId }).first(COLUMNS);
  return row && normalize(row);
}

export async function attachmentById(db: Knex, realmId: number, id: number, options: { lock?: boolean } = {}): Promise<AttachmentRow | undefined> {
  const query = db('attachments').where({ realm_id: realmId, id }).first(COLUMNS);
  if (options.lock) query.forUpdate();
  const row = await query;
  return row && normalize(row);
}

export async function attachmentsByIds(db: Knex, ids: number[]): Promise<AttachmentRow[]> {
  if (ids.length === 0) return [];
  return (
    await db('attachments')
      .whereRaw(...anyOf('id', ids))
      .select(COLUMNS)
      .orderBy('id')
  ).map(normalize);
}

export async function attachmentsOwnedBy(db: Knex, ownerId: number): Promise<AttachmentRow[]> {
  return (await db('attachments').where({ owner_id: ownerId }).select(COLUMNS).orderBy('id')).map(normalize);
}

export async function attachmentsByPathIds(db: Knex, realmId: number, pathIds: string[]): Promise<AttachmentRow[]> {
  if (pathIds.length === 0) return [];
  return (await db('attachments').where('realm_id', realmId).whereIn('path_id', pathIds).select(COLUMNS)).map(normalize);
}

/** The ids of the messages linking each attachment, oldest first. */
export async function linkingMessageIds(db: Knex, attachmentIds: number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>(attachmentIds.map((id) => [id, []]));
  if (attachmentIds.length === 0) return out;
  const rows: { attachment_id: number; message_id: number }[] = await db('attachment_messages as am')
    .whereRaw(...anyOf('am.attachment_id', attachmentIds))
    .orderBy('am.message_id')
    .select('am.attachment_id', 'am.message_id');
  for (const row of rows) out.get(row.attachment_id)!.push(row.message_id);
  return out;
}

/** Bytes of every file the organization's users uploaded. */
export async function uploadSpaceUsed(db: Knex, realmId: number): Promise<number> {
  const row = await db('attachments').where({ realm_id: realmId }).sum({ total: 'size' }).first();
  return Number(row?.total ?? 0);
}
