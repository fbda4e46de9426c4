import crypto from 'node:crypto';

/**
 * Names of uploaded files, as Zulip forms them: the path_id is
 * "<realm id>/<two hex digits>/<24 random characters>/<sanitized file name>", and the file's URL is
 * /user_uploads/ followed by the path_id (each segment percent-encoded).
 */

/** A file name safe in a file system, an object store and a URL; Unicode letters are kept. */
export function sanitizeFileName(name: string): string {
  let value = name.normalize('NFKC');
  value = value.replace(/[^\p{L}\p{N}\p{M}_\s.-]/gu, '').trim();
  value = value.replace(/[-\s]+/g, '-');
  if (value === '' || value === '.' || value === '..') return 'uploaded-file';
  return value;
}

export function newPathId(realmId: number, fileName: string): string {
  const bucket = crypto.randomBytes(1).toString('hex');
  const random = crypto.randomBytes(18).toString('base64url');
  return `${realmId}/${bucket}/${random}/${sanitizeFileName(fileName)}`;
}

export function uploadUrl(pathId: string): string {
  return `/user_uploads/${pathId.split('/').map(encodeURIComponent).join('/')}`;
}

// A link, or an image written with Markdown image syntax (which names its file in data-original-src).
const LINKED_UPLOAD = /(?:href|data-original-src)="\/?user_uploads\/([^"?#]+)"/g;

function unescapeHtml(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (_m, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'" })[name]!);
}

/**
 * The path_ids a rendered message links to. Rendering makes links to this server's uploads
 * relative, so only those count (a link to another server's /user_uploads names none of ours).
 */
export function linkedPathIds(renderedHtml: string): string[] {
  const found = new Set<string>();
  for (const match of renderedHtml.matchAll(LINKED_UPLOAD)) {
    let pathId = unescapeHtml(match[1]);
    try {
      pathId = pathId.split('/').map(decodeURIComponent).join('/');
    } catch {
      continue;
    }
    if (/^\d+\/./.test(pathId)) found.add(pathId);
  }
  return [...found];
}

/** Types a browser may show in place: none of them can run script in the server's origin. */
const INLINE_TYPES = new Set([
  'application/pdf',
  'audio/aac',
  'audio/flac',
  'audio/mp4',
  'audio/mpeg',
  'audio/wav',
  'audio/webm',
  'image/apng',
  'image/avif',
  'image/gif',
  'image/jpeg',
  'image/png',
  'image/webp',
  'text/plain',
  'video/mp4',
  'video/webm',
]);

export function isInlineType(contentType: string): boolean {
  return INLINE_TYPES.has(contentType.split(';')[0].trim().toLowerCase());
}

/** `Content-Disposition` for a download: RFC 6266 with an ASCII fallback name. */
export function contentDisposition(kind: 'inline' | 'attachment', fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
