import type { UploadPreview } from './context';
import { element } from './html';

/**
 * The markup of an uploaded image's preview, as Zulip writes it: a `message_inline_image` div
 * holding a link to the original around an `img`. Until the thumbnails exist the `img` is a
 * loading placeholder; the thumbnail step later replaces exactly that tag (see uploads'
 * thumbnail-rewrite), so both shapes are built here.
 */
export const LOADING_IMAGE_SRC = '/static/images/loading/loader-black.svg';

export function previewImgTag(preview: UploadPreview): string {
  const facts = {
    'data-original-content-type': preview.contentType,
    'data-original-dimensions': `${preview.width}x${preview.height}`,
  };
  if (preview.thumbnailUrl === null) return element('img', { class: 'image-loading-placeholder', ...facts, src: LOADING_IMAGE_SRC });
  return element('img', {
    ...facts,
    'data-animated': preview.animated ? 'true' : undefined,
    'data-transcoded-image': preview.transcodedImage ?? undefined,
    src: preview.thumbnailUrl,
  });
}

/** `title` is the link's text when it differs from its address (Zulip leaves it out otherwise). */
export function inlineImageHtml(href: string, title: string | null, preview: UploadPreview): string {
  return `<div class="message_inline_image">${element('a', { href, title: title ?? undefined })}${previewImgTag(preview)}</a></div>`;
}

/**
 * An uploaded image written with Markdown image syntax: the img alone, in place, naming the
 * original in `data-original-src` (Zulip's shape since feature level 437).
 */
export function inlineSyntaxImgTag(src: string, alt: string, preview: UploadPreview): string {
  const facts = {
    alt,
    'data-original-content-type': preview.contentType,
    'data-original-dimensions': `${preview.width}x${preview.height}`,
    'data-original-src': src,
  };
  if (preview.thumbnailUrl === null) return element('img', { ...facts, class: 'inline-image image-loading-placeholder', src: LOADING_IMAGE_SRC });
  return element('img', {
    ...facts,
    class: 'inline-image',
    'data-animated': preview.animated ? 'true' : undefined,
    'data-transcoded-image': preview.transcodedImage ?? undefined,
    src: preview.thumbnailUrl,
  });
}

/** The path_id an `href` names when it links one of this server's uploads, decoded. */
export function uploadPathIdOf(href: string): string | null {
  if (!href.startsWith('/user_uploads/')) return null;
  const raw = href.slice('/user_uploads/'.length).split(/[?#]/)[0];
  try {
    return raw.split('/').map(decodeURIComponent).join('/');
  } catch {
    return null;
  }
}
