import type { Config } from '../../config';
import type { UnitOfWork } from '../../db/unit-of-work';
import { anyOf } from '../../db/lists';
import type { User } from '../users/model';
import { canReadAttachment } from './access';
import { linkedPathIds } from './paths';
import { AttachmentRow, attachmentsByIds, attachmentsByPathIds, uploadSpaceUsed } from './queries';
import { fileStore } from './stores';
import { deleteStoredUpload } from './thumbnail-formats';
import { AttachmentDict, attachmentDicts } from './view';

/**
 * A message linking an uploaded file claims it: the attachment lists the message, which is what
 * lets the message's readers download the file. Sending or editing a message brings its claims in
 * line with its links; deleting it releases them, and a file no message links any more goes.
 */

/** Cheap test first: most messages link no upload, and sending must stay fast for them. */
export function mayLinkUploads(renderedHtml: string): boolean {
  return renderedHtml.includes('user_uploads/');
}

async function announceUpdates(uow: UnitOfWork, rows: AttachmentRow[]): Promise<AttachmentDict[]> {
  if (rows.length === 0) return [];
  const db = uow.trx;
  const dicts = await attachmentDicts(db, rows);
  const used = await uploadSpaceUsed(db, uow.realmId);
  dicts.forEach((dict, i) => uow.emit({ type: 'attachment', op: 'update', attachment: dict, upload_space_used: used }, [rows[i].owner_id]));
  return dicts;
}

/**
 * Makes `messageId`'s claims match the uploads its rendering links. Files the author may not read
 * are not claimed (a link cannot grant access one does not have). Returns the author's files
 * that no message links any more.
 */
export async function syncMessageClaims(uow: UnitOfWork, author: User, messageId: number, renderedHtml: string): Promise<AttachmentDict[]> {
  const db = uow.trx;
  const linked = mayLinkUploads(renderedHtml) ? await attachmentsByPathIds(db, uow.realmId, linkedPathIds(renderedHtml)) : [];
  const current = new Set<number>(
    (await db('attachment_messages').where({ message_id: messageId }).select('attachment_id')).map((r: { attachment_id: number }) => r.attachment_id),
  );
  const wanted: AttachmentRow[] = [];
  for (const row of linked) if (current.has(row.id) || (await canReadAttachment(db, author, row))) wanted.push(row);
  const wantedIds = new Set(wanted.map((r) => r.id));
  const added = wanted.filter((r) => !current.has(r.id));
  const removedIds = [...current].filter((id) => !wantedIds.has(id));
  if (added.length > 0) await db('attachment_messages').insert(added.map((r) => ({ attachment_id: r.id, message_id: messageId })));
  if (removedIds.length > 0)
    await db('attachment_messages')
      .where({ message_id: messageId })
      .whereRaw(...anyOf('attachment_id', removedIds))
      .delete();
  const changed = [...added, ...(await attachmentsByIds(db, removedIds))];
  const dicts = await announceUpdates(uow, changed);
  return dicts.filter((d, i) => changed[i].owner_id === author.id && d.message_ids.length === 0 && removedIds.includes(d.id));
}

/**
 * Before messages are deleted: their claims go, and so does every file that only they linked
 * (its row now, its bytes once the deletion has committed).
 */
export async function releaseDeletedMessages(uow: UnitOfWork, config: Pick<Config, 'dataDir' | 's3'>, messageIds: number[]): Promise<void> {
  if (messageIds.length === 0) return;
  const db = uow.trx;
  const ids: number[] = (
    await db('attachment_messages')
      .whereRaw(...anyOf('message_id', messageIds))
      .distinct('attachment_id')
  ).map((r: { attachment_id: number }) => r.attachment_id);
  if (ids.length === 0) return;
  await db('attachment_messages')
    .whereRaw(...anyOf('message_id', messageIds))
    .delete();
  const rows = await attachmentsByIds(db, ids);
  const stillLinked = new Set<number>(
    (
      await db('attachment_messages')
        .whereRaw(...anyOf('attachment_id', ids))
        .distinct('attachment_id')
    ).map((r: { attachment_id: number }) => r.attachment_id),
  );
  const orphans = rows.filter((r) => !stillLinked.has(r.id));
  if (orphans.length > 0)
    await db('attachments')
      .whereRaw(
        ...anyOf(
          'id',
          orphans.map((r) => r.id),
        ),
      )
      .delete();
  await announceUpdates(
    uow,
    rows.filter((r) => stillLinked.has(r.id)),
  );
  if (orphans.length > 0) {
    const used = await uploadSpaceUsed(db, uow.realmId);
    for (const row of orphans) uow.emit({ type: 'attachment', op: 'remove', attachment: { id: row.id }, upload_space_used: used }, [row.owner_id]);
    const store = fileStore(config);
    uow.afterCommit(() => {
      for (const row of orphans) void deleteStoredUpload(store, row.path_id).catch(() => undefined);
    });
  }
}
