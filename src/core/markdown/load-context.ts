import type { Knex } from 'knex';
import { inParallel } from '../../db/in-parallel';
import { activeRealmEmojiByName } from '../emoji/queries';
import { realmEmojiSourceUrl } from '../emoji/view';
import { realmLinkifiers } from '../linkifiers/cache';
import { buildRenderContext, LinkableChannel, MentionGroup, MentionUser, RenderContext } from './context';
import { referenceCandidates } from './scan';
import { anyOf, listParam } from '../../db/lists';
import { storedRealmSettingsNamed } from '../realm/setting-store';
import { uploadPreviews } from '../uploads/previews';

export interface LoadContextOptions {
  realmUrl?: string;
  /** Looks up the channels the author may link to, by exact name (supplied by the channels feature). */
  resolveChannels?: (names: string[]) => Promise<LinkableChannel[]>;
}

/**
 * Fetches what a piece of Markdown refers to, one query per kind: the users named or numbered in
 * mentions, the user groups, the custom emoji and (through the resolver) the channels. The
 * organization's linkifiers come from a per-process cache (no query once loaded); uploaded images
 * the text links come with their preview facts (none queried when it links no upload), and the
 * organization's settings that change rendering.
 * System groups stand for roles and are not mentionable by name.
 */
export async function loadRenderContext(db: Knex, realmId: number, content: string, options: LoadContextOptions = {}): Promise<RenderContext> {
  const wanted = referenceCandidates(content);
  const [users, groups, emoji, channels, linkifiers, settings] = await inParallel(db, [
    () => loadUsers(db, realmId, wanted.userNames, wanted.userIds),
    () => loadGroups(db, realmId, wanted.groupNames),
    () => activeRealmEmojiByName(db, realmId, wanted.emojiNames),
    async () => (wanted.channelNames.length > 0 && options.resolveChannels ? options.resolveChannels(wanted.channelNames) : []),
    () => realmLinkifiers(db, realmId),
    () => renderSettings(db, realmId, content, wanted.uploadPathIds.length > 0),
  ] as const);
  // Uploaded images get previews only while the organization has inline_image_preview on.
  const previews = settings.inline_image_preview === false ? undefined : await uploadPreviews(db, realmId, wanted.uploadPathIds);
  return buildRenderContext({
    realmUrl: options.realmUrl,
    users,
    groups,
    channels,
    realmEmoji: [...emoji.values()].map((e) => ({ id: e.id, name: e.name, sourceUrl: realmEmojiSourceUrl(e) })),
    linkifiers,
    uploadPreviews: previews,
    defaultCodeLanguage: typeof settings.default_code_block_language === 'string' ? settings.default_code_block_language : '',
  });
}

/**
 * The organization's settings that change rendering, read only when the text could use them: a
 * link to an upload (inline_image_preview) or a code fence (default_code_block_language).
 */
async function renderSettings(db: Knex, realmId: number, content: string, linksUploads: boolean): Promise<Record<string, unknown>> {
  const names = [...(linksUploads ? ['inline_image_preview'] : []), ...(/```|~~~/.test(content) ? ['default_code_block_language'] : [])];
  return storedRealmSettingsNamed(db, realmId, names);
}

async function loadUsers(db: Knex, realmId: number, names: string[], ids: number[]): Promise<MentionUser[]> {
  if (names.length === 0 && ids.length === 0) return [];
  const lowered = [...new Set(names.map((n) => n.toLowerCase()))];
  const rows: { id: number; full_name: string; is_active: boolean }[] = await db('users')
    .select('id', 'full_name', 'is_active')
    .where('realm_id', realmId)
    .andWhere((q) => {
      if (lowered.length > 0) q.orWhereRaw('lower(full_name) = ANY(?::text[])', [listParam(lowered, 'text')]);
      if (ids.length > 0) q.orWhereRaw(...anyOf('id', ids));
    })
    .orderBy('id');
  return rows.map((r) => ({ id: r.id, fullName: r.full_name, isActive: r.is_active }));
}

async function loadGroups(db: Knex, realmId: number, names: string[]): Promise<MentionGroup[]> {
  if (names.length === 0) return [];
  const rows: { id: number; name: string; deactivated: boolean }[] = await db('user_groups')
    .select('id', 'name', 'deactivated')
    .where({ realm_id: realmId, is_system_group: false })
    .whereRaw(...anyOf('name', names, 'text'));
  return rows.map((r) => ({ id: r.id, name: r.name, deactivated: r.deactivated }));
}
