import type { Knex } from 'knex';
import { AttachmentRow, attachmentsByIds, linkingMessageIds } from './queries';

/**
 * An attachment as Zulip's API shows it (GET /attachments, `attachment` events, an edit's
 * `detached_uploads`). Times are whole UNIX seconds (Zulip's milliseconds before feature level 443);
 * the linking messages are listed by id, oldest first (objects with their send times before 472).
 */
export interface AttachmentDict {
  id: number;
  name: string;
  path_id: string;
  size: number;
  create_time: number;
  message_ids: number[];
}

const unixSeconds = (at: Date | string) => Math.floor(new Date(at).getTime() / 1000);

export async function attachmentDicts(db: Knex, rows: AttachmentRow[]): Promise<AttachmentDict[]> {
  const messageIds = await linkingMessageIds(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => ({
    id: row.id,
    name: row.file_name,
    path_id: row.path_id,
    size: row.size,
    create_time: unixSeconds(row.create_time),
    message_ids: messageIds.get(row.id) ?? [],
  }));
}

export async function attachmentDictsByIds(db: Knex, ids: number[]): Promise<AttachmentDict[]> {
  return attachmentDicts(db, await attachmentsByIds(db, ids));
}
