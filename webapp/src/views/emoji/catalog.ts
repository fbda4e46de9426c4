import data from 'emojibase-data/en/compact.json';
import messages from 'emojibase-data/en/messages.json';
import { getApp } from '../../state/store';
import { unicodeFromCode } from './glyph';

/**
 * The picker's emoji: Unicode emoji in emojibase's categories and order, named as this server names
 * them (its `server_emoji_data_url` file, Zulip's names: `+1`, `tada`, ...), so that what the picker
 * sends is what the server accepts; then the organization's custom emoji.
 */
export interface PickerEmoji {
  name: string;
  code: string;
  type: 'unicode_emoji' | 'realm_emoji';
  /** What search matches: every name and emojibase's label and tags. */
  terms: string;
  glyph?: string;
  url?: string;
}

export interface Category {
  key: string;
  label: string;
  emojis: PickerEmoji[];
}

interface CompactEmoji {
  hexcode: string;
  label: string;
  group?: number;
  order?: number;
  tags?: string[];
}

let serverNames: Promise<Record<string, string[]>> | null = null;

/** The server's code → [canonical name, ...aliases]; the file is immutable under its name. */
function loadServerNames(): Promise<Record<string, string[]>> {
  const url = getApp().register.server_emoji_data_url;
  if (typeof url !== 'string') return Promise.reject(new Error('The server names no emoji data.'));
  // Asked on this origin: the page's policy allows no other, and the path is the same.
  serverNames ??= fetch(new URL(url, window.location.href).pathname)
    .then((r) => (r.ok ? r.json() : Promise.reject(new Error('The emoji could not be loaded.'))))
    .then((body: { code_to_names: Record<string, string[]> }) => body.code_to_names);
  serverNames.catch(() => {
    serverNames = null;
  });
  return serverNames;
}

/** Emojibase writes fully qualified sequences in capitals; Zulip's codes are lowercase without FE0F. */
const zulipCode = (hexcode: string) =>
  hexcode
    .toLowerCase()
    .split('-')
    .filter((part) => part !== 'fe0f')
    .join('-');

let unicode: Promise<Category[]> | null = null;

function unicodeCategories(): Promise<Category[]> {
  unicode ??= loadServerNames().then((names) => {
    const groups = (messages as { groups: { key: string; message: string; order: number }[] }).groups;
    const byGroup = new Map<number, PickerEmoji[]>();
    const entries = (data as CompactEmoji[]).filter((e) => e.group !== undefined && e.group !== 2).sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
    for (const entry of entries) {
      const code = zulipCode(entry.hexcode);
      const known = names[code] ?? names[entry.hexcode.toLowerCase()];
      if (!known) continue;
      const list = byGroup.get(entry.group!) ?? [];
      list.push({
        name: known[0],
        code,
        type: 'unicode_emoji',
        glyph: unicodeFromCode(code),
        terms: [...known, entry.label, ...(entry.tags ?? [])].join(' ').toLowerCase(),
      });
      byGroup.set(entry.group!, list);
    }
    return groups
      .filter((g) => byGroup.has(g.order))
      .map((g) => ({ key: g.key, label: g.message.replace(/^./, (c) => c.toUpperCase()), emojis: byGroup.get(g.order)! }));
  });
  unicode.catch(() => {
    unicode = null;
  });
  return unicode;
}

function customCategory(): Category {
  const emojis = Object.values(getApp().realmEmoji)
    .filter((e) => !e.deactivated)
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((e): PickerEmoji => ({ name: e.name, code: String(e.id), type: 'realm_emoji', url: e.source_url, terms: e.name.toLowerCase() }));
  return { key: 'custom', label: 'Custom', emojis };
}

/** Zulip's popular reactions, first in the picker: +1, tada, smile, heart, working_on_it, octopus. */
const POPULAR = ['1f44d', '1f389', '1f642', '2764', '1f6e0', '1f419'];

export async function loadCatalog(): Promise<Category[]> {
  const custom = customCategory();
  const categories = await unicodeCategories();
  const byCode = new Map(categories.flatMap((c) => c.emojis.map((e) => [e.code, e] as const)));
  const popular = POPULAR.flatMap((code) => byCode.get(code) ?? []);
  return [...(popular.length > 0 ? [{ key: 'popular', label: 'Popular', emojis: popular }] : []), ...(custom.emojis.length > 0 ? [custom] : []), ...categories];
}

/** Emoji whose names, label or tags contain every word searched; names that start with it first. */
export function searchCatalog(categories: Category[], query: string): PickerEmoji[] {
  const words = query.toLowerCase().replace(/_/g, ' ').split(/\s+/).filter(Boolean);
  const all = categories.filter((c) => c.key !== 'popular').flatMap((c) => c.emojis);
  const hits = all.filter((e) => words.every((w) => e.terms.replace(/_/g, ' ').includes(w)));
  const first = words[0] ?? '';
  const starts = (e: PickerEmoji) => (e.name.startsWith(first) ? 0 : 1);
  return hits.sort((a, b) => starts(a) - starts(b)).slice(0, 200);
}
