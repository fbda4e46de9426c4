import type { Knex } from 'knex';
import { loadViewer } from '../channels/access';
import { bulkAccessMessages } from '../messages/access';
import { messagesByIds } from '../messages/model';
import type { User } from '../users/model';
import type { AttachmentRow } from './queries';

/**
 * Who may read an uploaded file, as Zulip decides it: its uploader, and anyone who can see a
 * message linking it (a channel's shared history counts, as it does for the message itself).
 */
export async function canReadAttachment(db: Knex, user: User, attachment: AttachmentRow): Promise<boolean> {
  if (attachment.owner_id === user.id) return true;
  if (attachment.realm_id !== user.realm_id) return false;
  const ids: number[] = (await db('attachment_messages').where({ attachment_id: attachment.id }).select('message_id')).map(
    (r: { message_id: number }) => r.message_id,
  );
  if (ids.length === 0) return false;
  const messages = await messagesByIds(db, ids);
  const visible = await bulkAccessMessages(db, await loadViewer(db, user), messages);
  return visible.length > 0;
}
