import sharp, { type Metadata } from 'sharp';
import type { Readable } from 'node:stream';
import { IMAGE_BOMB_TOTAL_PIXELS, IMAGE_MAX_ANIMATED_PIXELS, ImageFacts, THUMBNAIL_ACCEPT_IMAGE_TYPES } from './thumbnail-formats';

/**
 * Whether an upload is an image worth previewing, as Zulip's maybe_thumbnail decides: only
 * declared image types are parsed at all, only the header is read, and images too large to decode
 * safely (decompression bombs) count as no image. Dimensions are as shown, after EXIF rotation.
 * Anything that does not parse is simply not an image: its link stays a plain link.
 */
export async function probeImage(bytes: Buffer, contentType: string): Promise<ImageFacts | null> {
  if (!THUMBNAIL_ACCEPT_IMAGE_TYPES.has(contentType)) return null;
  let meta: Metadata;
  try {
    meta = await sharp(bytes).metadata();
  } catch {
    return null;
  }
  const frames = meta.pages ?? 1;
  const width = meta.width;
  const frameHeight = meta.pageHeight ?? meta.height;
  if (!width || !frameHeight || frames < 1) return null;
  // Animations are thumbnailed from their first frames only, so only those count.
  if (frames === 1 ? width * frameHeight > IMAGE_BOMB_TOTAL_PIXELS : width * frameHeight * Math.min(3, frames) > IMAGE_MAX_ANIMATED_PIXELS) return null;
  const turned = (meta.orientation ?? 1) >= 5;
  return { width: turned ? frameHeight : width, height: turned ? width : frameHeight, frames, contentType };
}

/** The whole stream as one buffer (uploads are bounded by the upload size limit). */
export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
