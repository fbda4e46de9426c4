import type { AppDeps } from '../deps';
import { inTransaction } from '../../db/unit-of-work';
import { ApiError, errors } from '../../errors';
import type { User } from '../users/model';
import { isRowId } from '../../db/ids';
import { probeImage, readAll } from './image-probe';
import { newPathId, uploadUrl } from './paths';
import { attachmentById, uploadSpaceUsed } from './queries';
import type { StagedFile } from './storage';
import { fileStore } from './stores';
import { deleteStoredUpload, ImageFacts, THUMBNAIL_ACCEPT_IMAGE_TYPES } from './thumbnail-formats';
import { attachmentDictsByIds } from './view';

const MIB = 1024 * 1024;

export interface UploadResult {
  url: string;
  filename: string;
  attachmentId: number;
}

export const fileTooLarge = (maxMib: number) => errors.badRequest(`Uploaded file is larger than the allowed limit of ${maxMib} MiB`);

const quotaExceeded = () => new ApiError('REALM_UPLOAD_QUOTA', "Upload would exceed your organization's upload quota.", 400);

/** Whether `size` more bytes fit in the organization's quota (always, without one). */
async function checkQuota(deps: AppDeps, db: AppDeps['knex'], size: number): Promise<void> {
  const quota = deps.config.uploadQuotaMib;
  if (quota === null) return;
  if ((await uploadSpaceUsed(db, deps.realmId)) + size > quota * MIB) throw quotaExceeded();
}

/**
 * Stores an uploaded file already staged in the file store: checks the size limit and the quota,
 * makes the file readable under a new path_id, then records it; the uploader's clients hear of it.
 * The file exists before its row does; if recording fails, the file goes again.
 */
export async function createAttachment(deps: AppDeps, user: User, staged: StagedFile, fileName: string, contentType: string): Promise<UploadResult> {
  const store = fileStore(deps.config);
  let committedKey: string | null = null;
  try {
    if (staged.size > deps.config.maxFileUploadSizeMib * MIB) throw fileTooLarge(deps.config.maxFileUploadSizeMib);
    await checkQuota(deps, deps.knex, staged.size);
    const pathId = newPathId(deps.realmId, fileName);
    await staged.commit(pathId);
    committedKey = pathId;
    const image = await imageFacts(store, pathId, contentType);
    const id = await inTransaction(deps, deps.realmId, async (uow) => {
      const db = uow.trx;
      // Serializes uploads of the organization so that two cannot both take the last of the quota.
      if (deps.config.uploadQuotaMib !== null) {
        await db('realms').where('id', deps.realmId).forUpdate().first('id');
        await checkQuota(deps, db, staged.size);
      }
      const [row] = await db('attachments')
        .insert({
          realm_id: deps.realmId,
          owner_id: user.id,
          path_id: pathId,
          file_name: fileName,
          content_type: contentType,
          size: staged.size,
          create_time: new Date(),
        })
        .returning('id');
      const attachmentId = Number(typeof row === 'object' ? row.id : row);
      // An image waits for its thumbnails; the worker hears of it through the event below.
      if (image) await db('image_attachments').insert(imageAttachmentRow(deps.realmId, attachmentId, pathId, image));
      const [dict] = await attachmentDictsByIds(db, [attachmentId]);
      uow.emit({ type: 'attachment', op: 'add', attachment: dict, upload_space_used: await uploadSpaceUsed(db, deps.realmId) }, [user.id]);
      return attachmentId;
    });
    return { url: uploadUrl(pathId), filename: fileName, attachmentId: id };
  } catch (error) {
    // Best effort: the request is answered with its own error; a file left behind because the
    // store is unreachable is found by the orphan sweep.
    await (committedKey ? store.delete(committedKey) : staged.discard()).catch(() => undefined);
    throw error;
  }
}

/** Images only: their header is read now, so that messages can show their size at once. */
async function imageFacts(store: ReturnType<typeof fileStore>, pathId: string, contentType: string): Promise<ImageFacts | null> {
  if (!THUMBNAIL_ACCEPT_IMAGE_TYPES.has(contentType)) return null;
  const file = await store.read(pathId);
  return file ? probeImage(await readAll(file.open()), contentType) : null;
}

function imageAttachmentRow(realmId: number, attachmentId: number, pathId: string, image: ImageFacts) {
  return {
    attachment_id: attachmentId,
    realm_id: realmId,
    path_id: pathId,
    original_width_px: image.width,
    original_height_px: image.height,
    frames: image.frames,
    content_type: image.contentType,
  };
}

export const invalidAttachment = () => errors.badRequest('Invalid attachment');

/** DELETE /attachments/{id}: only the uploader may; the file stops being served at once. */
export async function deleteAttachment(deps: AppDeps, user: User, attachmentId: number): Promise<void> {
  if (!isRowId(attachmentId)) throw invalidAttachment();
  const pathId = await inTransaction(deps, deps.realmId, async (uow) => {
    const db = uow.trx;
    const attachment = await attachmentById(db, deps.realmId, attachmentId, { lock: true });
    if (!attachment || attachment.owner_id !== user.id) throw invalidAttachment();
    await db('attachments').where({ id: attachment.id }).delete();
    uow.emit({ type: 'attachment', op: 'remove', attachment: { id: attachment.id }, upload_space_used: await uploadSpaceUsed(db, deps.realmId) }, [user.id]);
    return attachment.path_id;
  });
  // The row is gone, so nothing serves the file any more; its bytes and thumbnails go too (or,
  // when the store cannot be reached now, with the orphan sweep).
  await deleteStoredUpload(fileStore(deps.config), pathId).catch(() => undefined);
}
