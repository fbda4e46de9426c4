import type { AppDeps } from '../deps';
import { fileNotFound } from './downloads';
import { imageRowById } from './previews';
import type { AttachmentRow } from './queries';
import { formatName, parseFormatName, sameFormat, StoredThumbnail, THUMBNAIL_OUTPUT_FORMATS, ThumbnailFormat, thumbnailKey } from './thumbnail-formats';
import { ensureThumbnails } from './thumbnails';

/**
 * Which thumbnail answers /user_uploads/thumbnail/<path_id>/<format>, as Zulip's serve_file
 * decides (after the same access check as the original): a current format not made yet is made
 * now; a format made earlier is served; anything else gets the closest one that exists.
 */
export interface ThumbnailToServe {
  key: string;
  contentType: string;
  name: string;
}

/** Same animation first, then the same file type, the nearest width, the fewest bytes. */
function closest(requested: ThumbnailFormat, made: StoredThumbnail[]): StoredThumbnail {
  const grade = (t: StoredThumbnail) => [
    Number(t.animated !== requested.animated),
    Number(t.extension !== requested.extension),
    Math.abs(t.maxWidth - requested.maxWidth),
    t.byteSize,
  ];
  return [...made].sort((a, b) => {
    const [x, y] = [grade(a), grade(b)];
    return x.map((v, i) => v - y[i]).find((d) => d !== 0) ?? 0;
  })[0];
}

export async function thumbnailToServe(deps: AppDeps, attachment: AttachmentRow, requestedName: string): Promise<ThumbnailToServe> {
  let row = await imageRowById(deps.knex, attachment.id);
  const requested = parseFormatName(requestedName);
  if (!row || !requested) throw fileNotFound();
  const frames = row.frames;
  const current = THUMBNAIL_OUTPUT_FORMATS.some((f) => (frames > 1 || !f.animated) && sameFormat(f, requested));
  let chosen = row.thumbnails.find((t) => sameFormat(t, requested));
  if (!chosen && current) {
    await ensureThumbnails(deps, row.attachmentId);
    row = await imageRowById(deps.knex, attachment.id);
    chosen = row?.thumbnails.find((t) => sameFormat(t, requested));
  } else if (!chosen && row.thumbnails.length > 0) {
    chosen = closest(requested, row.thumbnails);
  }
  if (!row || !chosen) throw fileNotFound();
  return { key: thumbnailKey(row.pathId, chosen), contentType: chosen.contentType, name: formatName(chosen) };
}
