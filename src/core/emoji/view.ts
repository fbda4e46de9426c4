import type { RealmEmoji } from './model';

/** A custom emoji as Zulip presents it (GET /realm/emoji, register, realm_emoji events). */
export interface RealmEmojiDict {
  id: string;
  name: string;
  source_url: string;
  still_url: string | null;
  deactivated: boolean;
  author_id: number | null;
}

/** Path of a custom emoji's image, relative to the server's URL. */
export function realmEmojiSourceUrl(emoji: Pick<RealmEmoji, 'realm_id' | 'file_name'>): string {
  return `/user_avatars/${emoji.realm_id}/emoji/images/${encodeURIComponent(emoji.file_name ?? '')}`;
}

export function realmEmojiDict(emoji: RealmEmoji): RealmEmojiDict {
  return {
    id: String(emoji.id),
    name: emoji.name,
    source_url: realmEmojiSourceUrl(emoji),
    // Animated images are served as uploaded; no still frame is extracted.
    still_url: null,
    deactivated: emoji.deactivated,
    author_id: emoji.author_id,
  };
}

/** The `emoji` / `realm_emoji` object: every custom emoji keyed by its id. */
export function realmEmojiMap(rows: RealmEmoji[]): Record<string, RealmEmojiDict> {
  const out: Record<string, RealmEmojiDict> = {};
  for (const row of rows) out[String(row.id)] = realmEmojiDict(row);
  return out;
}
