import type { Knex } from 'knex';
import { AttachmentRow, attachmentsByIds, linkingMessages } from './queries';

/**
 * An attachment as Zulip's API shows it (GET /attachments, `attachment` events, an edit's
 * `detached_uploads`). Times are whole UNIX seconds (Zulip's milliseconds before feature level 443).
 */
export interface AttachmentDict {
  id: number;
  name: string;
  path_id: string;
  size: number;
  create_time: number;
  messages: { id: number; date_sent: number }[];
}

const unixSeconds = (at: Date | string) => Math.floor(new Date(at).getTime() / 1000);

export async function attachmentDicts(db: Knex, rows: AttachmentRow[]): Promise<AttachmentDict[]> {
  const messages = await linkingMessages(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => ({
    id: row.id,
    name: row.file_name,
    path_id: row.path_id,
    size: row.size,
    create_time: unixSeconds(row.create_time),
    messages: (messages.get(row.id) ?? []).map((m) => ({ id: m.id, date_sent: unixSeconds(m.date_sent) })),
  }));
}

export async function attachmentDictsByIds(db: Knex, ids: number[]): Promise<AttachmentDict[]> {
  return attachmentDicts(db, await attachmentsByIds(db, ids));
}
