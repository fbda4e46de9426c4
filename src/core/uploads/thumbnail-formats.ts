import { isInlineType } from './paths';
import type { FileStore } from './storage';

/**
 * Zulip's thumbnail formats. A format's name ("840x560.webp", "840x560-anim.webp") is the last
 * segment of its URL, /user_uploads/thumbnail/<path_id>/<name>; the first animated and still formats
 * of THUMBNAIL_OUTPUT_FORMATS are the ones written into messages.
 */
export interface ThumbnailFormat {
  extension: string;
  maxWidth: number;
  maxHeight: number;
  animated: boolean;
}

/** A format that was made for an image, as recorded in its `thumbnail_metadata`. */
export interface StoredThumbnail extends ThumbnailFormat {
  contentType: string;
  width: number;
  height: number;
  byteSize: number;
}

export const THUMBNAIL_OUTPUT_FORMATS: readonly ThumbnailFormat[] = [
  { extension: 'webp', maxWidth: 840, maxHeight: 560, animated: true },
  { extension: 'webp', maxWidth: 840, maxHeight: 560, animated: false },
];

/** Also made for image types browsers may not show (HEIC, TIFF, SVG): a large still rendition. */
const TRANSCODED_IMAGE_FORMAT: ThumbnailFormat = { extension: 'webp', maxWidth: 4032, maxHeight: 3024, animated: false };

/** Content types whose bytes are parsed as images at all (as declared by the uploader). */
export const THUMBNAIL_ACCEPT_IMAGE_TYPES = new Set([
  'image/avif',
  'image/gif',
  'image/heic',
  'image/jpeg',
  'image/png',
  'image/tiff',
  'image/webp',
  'image/svg+xml',
]);

/** Zulip's decompression-bomb limits: a still image's pixels, and an animation's first three frames'. */
export const IMAGE_BOMB_TOTAL_PIXELS = 90_000_000;
export const IMAGE_MAX_ANIMATED_PIXELS = IMAGE_BOMB_TOTAL_PIXELS / 3;

export const formatName = (f: ThumbnailFormat): string => `${f.maxWidth}x${f.maxHeight}${f.animated ? '-anim' : ''}.${f.extension}`;

export function parseFormatName(name: string): ThumbnailFormat | null {
  const match = /^(\d{1,6})x(\d{1,6})(-anim)?\.(\w+)$/.exec(name);
  if (!match) return null;
  return { maxWidth: Number(match[1]), maxHeight: Number(match[2]), animated: match[3] !== undefined, extension: match[4] };
}

export const sameFormat = (a: ThumbnailFormat, b: ThumbnailFormat): boolean => formatName(a) === formatName(b);

/** Where a thumbnail's bytes live in the file store. */
export const thumbnailKey = (pathId: string, format: ThumbnailFormat): string => `thumbnail/${pathId}/${formatName(format)}`;

export function thumbnailUrl(pathId: string, format: ThumbnailFormat): string {
  return `/user_uploads/thumbnail/${pathId.split('/').map(encodeURIComponent).join('/')}/${formatName(format)}`;
}

/** The image facts an ImageAttachment row holds. */
export interface ImageFacts {
  width: number;
  height: number;
  frames: number;
  contentType: string;
}

/** Every format this image should have: still ones for still images, plus a transcoded one. */
export function wantedFormats(image: ImageFacts): ThumbnailFormat[] {
  const formats = THUMBNAIL_OUTPUT_FORMATS.filter((f) => image.frames > 1 || !f.animated);
  if (!isInlineType(image.contentType)) {
    const t = TRANSCODED_IMAGE_FORMAT;
    // Portrait images get a portrait rendition.
    formats.push(image.width >= image.height ? t : { ...t, maxWidth: t.maxHeight, maxHeight: t.maxWidth });
  }
  return formats;
}

export function missingFormats(image: ImageFacts, made: readonly ThumbnailFormat[]): ThumbnailFormat[] {
  return wantedFormats(image).filter((f) => !made.some((m) => sameFormat(m, f)));
}

/** Every key thumbnails of `pathId` may have been stored under (to delete them with the file). */
export function possibleThumbnailKeys(pathId: string): string[] {
  const t = TRANSCODED_IMAGE_FORMAT;
  const all = [...THUMBNAIL_OUTPUT_FORMATS, t, { ...t, maxWidth: t.maxHeight, maxHeight: t.maxWidth }];
  return all.map((f) => thumbnailKey(pathId, f));
}

/** The format written into messages: the first output format matching the image's animation. */
export function defaultFormat(frames: number): ThumbnailFormat {
  return THUMBNAIL_OUTPUT_FORMATS.find((f) => f.animated === frames > 1) ?? THUMBNAIL_OUTPUT_FORMATS[0];
}

/** `server_thumbnail_formats` of the register response. */
export function serverThumbnailFormats(): Record<string, unknown>[] {
  return THUMBNAIL_OUTPUT_FORMATS.map((f) => ({
    name: formatName(f),
    max_width: f.maxWidth,
    max_height: f.maxHeight,
    format: f.extension,
    animated: f.animated,
  }));
}

/** Removes an upload's bytes and every thumbnail of it (each delete is idempotent). */
export async function deleteStoredUpload(store: Pick<FileStore, 'delete'>, pathId: string): Promise<void> {
  await store.delete(pathId);
  for (const key of possibleThumbnailKeys(pathId)) await store.delete(key);
}
