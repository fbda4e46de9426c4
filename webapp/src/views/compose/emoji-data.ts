import { getApp } from '../../state/store';

/** An emoji name the server accepts, with what draws it. */
export interface EmojiName {
  name: string;
  /** A Unicode code ("1f44d") or, for a custom emoji, its image. */
  code?: string;
  imageUrl?: string;
}

let unicode: Promise<EmojiName[]> | null = null;

/**
 * The server's Unicode emoji names (register's server_emoji_data_url: code → names), fetched the
 * first time an emoji is completed. The file's name carries its digest, so the browser may cache it.
 */
function unicodeNames(): Promise<EmojiName[]> {
  unicode ??= (async () => {
    const url = getApp().register.server_emoji_data_url;
    if (typeof url !== 'string') return [];
    // Same origin: the page's policy lets scripts fetch only from here.
    const response = await fetch(new URL(url, window.location.href).pathname, { credentials: 'same-origin' });
    if (!response.ok) throw new Error('emoji data');
    const data = (await response.json()) as { code_to_names: Record<string, string[]> };
    const names: EmojiName[] = [];
    for (const [code, list] of Object.entries(data.code_to_names)) for (const name of list) names.push({ name, code });
    return names;
  })().catch(() => {
    unicode = null;
    return [];
  });
  return unicode;
}

/** Every emoji name: the organization's custom emoji, then Unicode. */
export async function emojiNames(): Promise<EmojiName[]> {
  const custom = Object.values(getApp().realmEmoji)
    .filter((e) => !e.deactivated)
    .map((e) => ({ name: e.name, imageUrl: e.still_url ?? e.source_url }));
  return [...custom, ...(await unicodeNames())];
}
