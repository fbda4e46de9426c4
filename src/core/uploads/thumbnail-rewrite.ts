import type { Knex } from 'knex';
import type { UnitOfWork } from '../../db/unit-of-work';
import type { UploadPreview } from '../markdown/context';
import { inlineSyntaxImgTag, previewImgTag, uploadPathIdOf } from '../markdown/image-preview';
import { flagList } from '../messages/flags';
import { imageRowsByPathIds, previewOf } from './previews';

/**
 * Once an image's thumbnails exist (or turn out impossible), the messages showing its loading
 * placeholder are rewritten in place, as Zulip's rewrite_thumbnailed_images does: only that `img`
 * changes (nothing else is rendered again), or the whole preview goes when the image could not be
 * thumbnailed. Each changed message is announced with a rendering-only `update_message`.
 */
const PLACEHOLDER_PREVIEW = /<div class="message_inline_image"><a href="([^"]*)"(?: title="[^"]*")?><img class="image-loading-placeholder"[^>]*><\/a><\/div>/g;
const PLACEHOLDER_IMG = /<img class="image-loading-placeholder"[^>]*>/;
// An image written with Markdown image syntax (`![alt](/user_uploads/...)`): the img alone.
const PLACEHOLDER_SYNTAX = /<img alt="([^"]*)" class="inline-image image-loading-placeholder"[^>]*? data-original-src="([^"]*)"[^>]*>/g;

const unescapeAttr = (value: string) => value.replace(/&(amp|lt|gt|quot);/g, (_m, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"' })[name]!);

/** The rendering with `pathId`'s placeholders replaced (or removed, for null); null if none was there. */
export function rewriteThumbnailedImages(html: string, pathId: string, preview: UploadPreview | null): string | null {
  let changed = false;
  const out = html.replace(PLACEHOLDER_PREVIEW, (whole: string, href: string) => {
    if (uploadPathIdOf(unescapeAttr(href)) !== pathId) return whole;
    changed = true;
    return preview ? whole.replace(PLACEHOLDER_IMG, previewImgTag(preview)) : '';
  });
  const withSyntax = out.replace(PLACEHOLDER_SYNTAX, (whole: string, alt: string, src: string) => {
    if (uploadPathIdOf(unescapeAttr(src)) !== pathId) return whole;
    changed = true;
    // An image that cannot be thumbnailed is shown as a link to the file, as on rendering.
    return preview ? inlineSyntaxImgTag(unescapeAttr(src), unescapeAttr(alt), preview) : `<a href="${src}">${alt}</a>`;
  });
  return changed ? withSyntax.trim() : null;
}

/** The path_ids whose previews in `html` still show the placeholder. */
function placeholderPathIds(html: string): string[] {
  if (!html.includes('image-loading-placeholder')) return [];
  const ids = new Set<string>();
  for (const match of html.matchAll(PLACEHOLDER_PREVIEW)) {
    const pathId = uploadPathIdOf(unescapeAttr(match[1]));
    if (pathId !== null) ids.add(pathId);
  }
  for (const match of html.matchAll(PLACEHOLDER_SYNTAX)) {
    const pathId = uploadPathIdOf(unescapeAttr(match[2]));
    if (pathId !== null) ids.add(pathId);
  }
  return [...ids];
}

/**
 * In the transaction storing a message's rendering: images still shown as placeholders whose
 * thumbnails were finished since rendering get them now, and images found undecodable meanwhile
 * lose their preview. A new message (`lock`) also locks those images, as Zulip's do_send_messages
 * does: a thumbnail step finishing now waits for the message, then rewrites it. An edit does not
 * lock them (it holds its message, which that step locks after the image): the step rewrites the
 * edited message once the edit commits.
 */
export async function settleImagePreviews(db: Knex, realmId: number, html: string, options: { lock: boolean }): Promise<string> {
  const pathIds = placeholderPathIds(html);
  if (pathIds.length === 0) return html;
  const rows = new Map((await imageRowsByPathIds(db, realmId, pathIds, options)).map((row) => [row.pathId, row]));
  let out = html;
  for (const pathId of pathIds) {
    const row = rows.get(pathId);
    if (row && row.thumbnails.length === 0) continue;
    out = rewriteThumbnailedImages(out, pathId, row ? previewOf(row) : null) ?? out;
  }
  return out;
}

interface LinkingMessage {
  id: number;
  content: string;
  rendered_content: string;
  stream_id: number | null;
}

/** Rewrites every message linking the attachment, in the caller's transaction; events after commit. */
export async function updateLinkingMessages(uow: UnitOfWork, attachmentId: number, pathId: string, preview: UploadPreview | null): Promise<void> {
  const db = uow.trx;
  const messages: LinkingMessage[] = await db('messages as m')
    .join('attachment_messages as am', 'am.message_id', 'm.id')
    .where('am.attachment_id', attachmentId)
    .orderBy('m.id')
    .forUpdate('m')
    .select('m.id', 'm.content', 'm.rendered_content', 'm.stream_id');
  for (const message of messages) {
    const html = rewriteThumbnailedImages(message.rendered_content, pathId, preview);
    if (html === null) continue;
    const hasImage = /<img (?![^>]*class="emoji)/.test(html);
    await db('messages').where({ id: message.id }).update({ rendered_content: html, has_image: hasImage });
    await announce(uow, message, html);
  }
}

/**
 * Zulip's do_update_embedded_data event, to the users holding the message (with their flags); for
 * a channel message, only those still subscribed.
 */
async function announce(uow: UnitOfWork, message: LinkingMessage, html: string): Promise<void> {
  const db = uow.trx;
  const event = {
    type: 'update_message',
    user_id: null,
    edit_timestamp: Math.floor(Date.now() / 1000),
    message_id: message.id,
    message_ids: [message.id],
    content: message.content,
    rendered_content: html,
    rendering_only: true,
  };
  const query = db('user_messages as um').join('users', 'users.id', 'um.user_id').where({ 'um.message_id': message.id, 'users.is_active': true });
  if (message.stream_id !== null) {
    query.whereExists(db('subscriptions as s').whereRaw('s.user_id = um.user_id').where({ 's.stream_id': message.stream_id, 's.active': true }));
  }
  const rows: { user_id: number; flags: number }[] = await query.select('um.user_id', 'um.flags');
  const byFlags = new Map<number, number[]>();
  for (const row of rows) byFlags.set(row.flags, [...(byFlags.get(row.flags) ?? []), row.user_id]);
  for (const [flags, userIds] of byFlags) uow.emit({ ...event, flags: flagList(flags) }, userIds);
}
