import { isEmojiCodeSyntax } from './codes';
import { zulipNamedEmoji } from './zulip-names';

/**
 * The Unicode emoji set, from iamcal's emoji-datasource (the data Zulip's own emoji names are
 * built on), with Zulip's names for the common emoji laid over it. Loaded once, on first use.
 */
interface DatasourceEntry {
  name: string | null;
  unified: string;
  non_qualified: string | null;
  short_names: string[];
  category: string;
  sort_order: number;
}

export interface UnicodeEmojiData {
  /** Every accepted name (canonical names and aliases) → emoji code. */
  nameToCode: ReadonlyMap<string, string>;
  /** Emoji code → canonical name. */
  codeToName: ReadonlyMap<string, string>;
}

/** Skin-tone modifiers are not emoji of their own in Zulip. */
const SKIN_TONES = new Set(['1f3fb', '1f3fc', '1f3fd', '1f3fe', '1f3ff']);

let loaded: UnicodeEmojiData | null = null;

export function unicodeEmojiData(): UnicodeEmojiData {
  loaded ??= build();
  return loaded;
}

/** Zulip's code for an entry: the sequence without presentation selectors, lowercase. */
function entryCode(entry: DatasourceEntry): string {
  return (entry.non_qualified ?? entry.unified).toLowerCase();
}

/** iamcal joins the parts of ZWJ sequences with dashes; Zulip's names use underscores. */
function entryNames(entry: DatasourceEntry, code: string): string[] {
  return code.includes('-200d-') ? entry.short_names.map((n) => n.replace(/-/g, '_')) : entry.short_names;
}

function build(): UnicodeEmojiData {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const entries = (require('emoji-datasource/emoji.json') as DatasourceEntry[])
    .slice()
    .sort((a, b) => a.sort_order - b.sort_order);
  const nameToCode = new Map<string, string>();
  const codeToName = new Map<string, string>();
  const known = new Set(entries.map(entryCode));

  for (const { code, canonical, aliases } of zulipNamedEmoji()) {
    if (!known.has(code)) continue;
    codeToName.set(code, canonical);
    for (const name of [canonical, ...aliases]) nameToCode.set(name, code);
  }

  for (const entry of entries) {
    const code = entryCode(entry);
    if (SKIN_TONES.has(code)) continue;
    const free = entryNames(entry, code).filter((name) => !nameToCode.has(name));
    for (const name of free) nameToCode.set(name, code);
    if (codeToName.has(code)) continue;
    // An emoji whose iamcal names Zulip gave to others is still named, after its Unicode name.
    const fallback = entry.name ? entry.name.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '') : '';
    const canonical = free[0] ?? (fallback && !nameToCode.has(fallback) ? fallback : undefined);
    if (canonical === undefined) continue;
    nameToCode.set(canonical, code);
    codeToName.set(code, canonical);
  }
  return { nameToCode, codeToName };
}

/** The code of a Unicode emoji name or alias, or undefined. */
export function emojiCodeForName(name: string): string | undefined {
  return unicodeEmojiData().nameToCode.get(name);
}

/** The canonical name of a Unicode emoji code, or undefined. */
export function emojiNameForCode(code: string): string | undefined {
  return unicodeEmojiData().codeToName.get(code);
}

/**
 * Whether a code names a Unicode emoji: dash-separated lowercase hex code points ("1f44d",
 * "1f1fa-1f1f8") of an emoji in the data set.
 */
export function isValidUnicodeEmojiCode(code: string): boolean {
  return isEmojiCodeSyntax(code) && unicodeEmojiData().codeToName.has(code);
}
