import sharp, { type FormatEnum } from 'sharp';
import { Readable } from 'node:stream';
import type { AppDeps } from '../deps';
import { inTransaction } from '../../db/unit-of-work';
import { describeFailure } from '../../failure-log';
import { log } from '../../log';
import { readAll } from './image-probe';
import { imageRowById, ImageRow, previewOf, toStoredJson } from './previews';
import type { FileStore } from './storage';
import { isStoreFailure } from './store-errors';
import { fileStore } from './stores';
import {
  formatName,
  IMAGE_BOMB_TOTAL_PIXELS,
  IMAGE_MAX_ANIMATED_PIXELS,
  missingFormats,
  sameFormat,
  StoredThumbnail,
  ThumbnailFormat,
  thumbnailKey,
} from './thumbnail-formats';
import { updateLinkingMessages } from './thumbnail-rewrite';

/**
 * Making an image's missing thumbnails (Zulip's ensure_thumbnails), off any request that sends a
 * message: the file is read and resized with no transaction open, each thumbnail is stored under
 * its own key, then one short transaction records them and rewrites the messages showing the
 * placeholder. An image that cannot be decoded loses its row and its previews, as in Zulip.
 */
const CONTENT_TYPES: Record<string, string> = { webp: 'image/webp', jpg: 'image/jpeg', png: 'image/png', gif: 'image/gif' };

async function resize(bytes: Buffer, image: ImageRow, format: ThumbnailFormat): Promise<StoredThumbnail & { data: Buffer }> {
  let pages = 1;
  if (image.frames > 1 && format.animated) {
    // As many frames as fit in the animation budget.
    const perFrame = image.width * image.height;
    pages = perFrame * image.frames < IMAGE_MAX_ANIMATED_PIXELS ? -1 : Math.max(1, Math.floor(IMAGE_MAX_ANIMATED_PIXELS / perFrame));
  }
  const { data, info } = await sharp(bytes, { pages, limitInputPixels: IMAGE_BOMB_TOTAL_PIXELS })
    .autoOrient()
    .resize(format.maxWidth, format.maxHeight, { fit: 'inside', withoutEnlargement: true })
    .toFormat(format.extension as keyof FormatEnum)
    .toBuffer({ resolveWithObject: true });
  const contentType = CONTENT_TYPES[format.extension] ?? 'application/octet-stream';
  const height = format.animated && info.pageHeight ? info.pageHeight : info.height;
  return { ...format, contentType, width: info.width, height, byteSize: data.length, data };
}

async function store(files: FileStore, key: string, data: Buffer): Promise<void> {
  const staged = await files.stage(Readable.from([data]));
  await staged.commit(key);
}

/** Makes what `attachmentId` lacks; safe to run twice at once (the second records nothing new). */
export async function ensureThumbnails(deps: AppDeps, attachmentId: number): Promise<void> {
  const row = await imageRowById(deps.knex, attachmentId);
  if (!row) return;
  const needed = missingFormats(row, row.thumbnails);
  if (needed.length === 0) return release(deps, attachmentId);
  const files = fileStore(deps.config);
  const stored = await files.read(row.pathId);
  const made: StoredThumbnail[] = [];
  let failed = stored === null;
  if (stored) {
    const bytes = await readAll(stored.open());
    for (const format of needed) {
      try {
        const { data, ...thumbnail } = await resize(bytes, row, format);
        await store(files, thumbnailKey(row.pathId, format), data);
        made.push(thumbnail);
      } catch (error) {
        // Not the image's fault: left claimed, so it is tried again once the claim runs out.
        if (isStoreFailure(error)) throw error;
        log().warn(`could not thumbnail attachment ${attachmentId} as ${formatName(format)}: ${describeFailure(error)}`);
        failed = true;
        break;
      }
    }
  }
  await record(deps, row, made, failed);
}

async function release(deps: AppDeps, attachmentId: number): Promise<void> {
  await deps.knex('image_attachments').where({ attachment_id: attachmentId }).update({ claimed_until: null });
}

async function record(deps: AppDeps, image: ImageRow, made: StoredThumbnail[], failed: boolean): Promise<void> {
  const attachmentId = image.attachmentId;
  let orphaned: string[] = [];
  await inTransaction(deps, deps.realmId, async (uow) => {
    const row = await imageRowById(uow.trx, attachmentId, { lock: true });
    if (!row) {
      // The upload went meanwhile: so do the thumbnails just made.
      orphaned = made.map((t) => thumbnailKey(image.pathId, t));
      return;
    }
    const thumbnails = [...row.thumbnails, ...made.filter((m) => !row.thumbnails.some((t) => sameFormat(t, m)))];
    if (thumbnails.length === 0 && failed) {
      // Never thumbnailed and undecodable: not an image after all.
      await updateLinkingMessages(uow, row.attachmentId, row.pathId, null);
      await uow.trx('image_attachments').where({ attachment_id: attachmentId }).delete();
      return;
    }
    await uow
      .trx('image_attachments')
      .where({ attachment_id: attachmentId })
      .update({ thumbnail_metadata: JSON.stringify(thumbnails.map(toStoredJson)), claimed_until: null });
    await updateLinkingMessages(uow, row.attachmentId, row.pathId, previewOf({ ...row, thumbnails }));
  });
  for (const key of orphaned) await fileStore(deps.config).delete(key);
}
