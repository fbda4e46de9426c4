import type { Knex } from 'knex';
import { anyOf } from '../../db/lists';
import type { UploadPreview } from '../markdown/context';
import { isInlineType } from './paths';
import { defaultFormat, formatName, ImageFacts, StoredThumbnail, thumbnailUrl } from './thumbnail-formats';

/** A row of image_attachments: an uploaded image's facts and the thumbnails made of it. */
export interface ImageRow extends ImageFacts {
  attachmentId: number;
  realmId: number;
  pathId: string;
  thumbnails: StoredThumbnail[];
}

interface RawRow {
  attachment_id: number;
  realm_id: number;
  path_id: string;
  original_width_px: number;
  original_height_px: number;
  frames: number;
  content_type: string;
  thumbnail_metadata: unknown;
}

const COLUMNS = ['attachment_id', 'realm_id', 'path_id', 'original_width_px', 'original_height_px', 'frames', 'content_type', 'thumbnail_metadata'];

/** Zulip's stored shape of one thumbnail, in the jsonb column. */
interface StoredJson {
  extension: string;
  content_type: string;
  max_width: number;
  max_height: number;
  animated: boolean;
  width: number;
  height: number;
  byte_size: number;
}

export function toStoredJson(t: StoredThumbnail): StoredJson {
  return {
    extension: t.extension,
    content_type: t.contentType,
    max_width: t.maxWidth,
    max_height: t.maxHeight,
    animated: t.animated,
    width: t.width,
    height: t.height,
    byte_size: t.byteSize,
  };
}

export function imageRow(raw: RawRow): ImageRow {
  const json = (typeof raw.thumbnail_metadata === 'string' ? JSON.parse(raw.thumbnail_metadata) : raw.thumbnail_metadata) as StoredJson[];
  return {
    attachmentId: raw.attachment_id,
    realmId: raw.realm_id,
    pathId: raw.path_id,
    width: raw.original_width_px,
    height: raw.original_height_px,
    frames: raw.frames,
    contentType: raw.content_type,
    thumbnails: json.map((j) => ({
      extension: j.extension,
      contentType: j.content_type,
      maxWidth: j.max_width,
      maxHeight: j.max_height,
      animated: j.animated,
      width: j.width,
      height: j.height,
      byteSize: j.byte_size,
    })),
  };
}

export async function imageRowByPathId(db: Knex, realmId: number, pathId: string, options: { lock?: boolean } = {}): Promise<ImageRow | undefined> {
  if (pathId.includes('\0')) return undefined;
  const query = db('image_attachments').where({ realm_id: realmId, path_id: pathId }).first(COLUMNS);
  if (options.lock) query.forUpdate();
  const raw = (await query) as RawRow | undefined;
  return raw && imageRow(raw);
}

export async function imageRowById(db: Knex, attachmentId: number, options: { lock?: boolean } = {}): Promise<ImageRow | undefined> {
  const query = db('image_attachments').where({ attachment_id: attachmentId }).first(COLUMNS);
  if (options.lock) query.forUpdate();
  const raw = (await query) as RawRow | undefined;
  return raw && imageRow(raw);
}

/** What messages show for the image: the placeholder until thumbnails exist, then the default one. */
export function previewOf(row: ImageRow): UploadPreview {
  const ready = row.thumbnails.length > 0;
  const format = defaultFormat(row.frames);
  // The largest rendition stands in for originals browsers may not show.
  const largest = isInlineType(row.contentType) ? undefined : [...row.thumbnails].sort((a, b) => b.width * b.height - a.width * a.height)[0];
  return {
    width: row.width,
    height: row.height,
    contentType: row.contentType,
    thumbnailUrl: ready ? thumbnailUrl(row.pathId, format) : null,
    animated: ready && format.animated,
    transcodedImage: largest ? formatName(largest) : null,
  };
}

/** The images among `pathIds`, by path_id (one query; none when the list is empty). */
export async function uploadPreviews(db: Knex, realmId: number, pathIds: string[]): Promise<Map<string, UploadPreview>> {
  const out = new Map<string, UploadPreview>();
  const wanted = pathIds.filter((p) => !p.includes('\0'));
  if (wanted.length === 0) return out;
  const rows = (await db('image_attachments')
    .where('realm_id', realmId)
    .whereRaw(...anyOf('path_id', wanted, 'text'))
    .select(COLUMNS)) as RawRow[];
  for (const raw of rows) {
    const row = imageRow(raw);
    out.set(row.pathId, previewOf(row));
  }
  return out;
}

/**
 * The rows of `pathIds`; with `lock`, held FOR SHARE until the caller's transaction ends (the
 * thumbnail step locks a row FOR UPDATE before rewriting the messages linking it, so it waits).
 */
export async function imageRowsByPathIds(db: Knex, realmId: number, pathIds: string[], options: { lock: boolean }): Promise<ImageRow[]> {
  if (pathIds.length === 0) return [];
  const query = db('image_attachments')
    .where('realm_id', realmId)
    .whereRaw(...anyOf('path_id', pathIds, 'text'))
    .orderBy('attachment_id')
    .select(COLUMNS);
  if (options.lock) query.forShare();
  return ((await query) as RawRow[]).map(imageRow);
}
