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

/**
 * Not emoji of their own in Zulip: the skin-tone modifiers, and all clock faces but one
 * (1f557 stands for "time").
 */
const EXCLUDED = new Set([
  '1f3fb',
  '1f3fc',
  '1f3fd',
  '1f3fe',
  '1f3ff',
  '1f550',
  '1f551',
  '1f552',
  '1f553',
  '1f554',
  '1f555',
  '1f556',
  '1f558',
  '1f559',
  '1f55a',
  '1f55b',
  '1f55c',
  '1f55d',
  '1f55e',
  '1f55f',
  '1f560',
  '1f561',
  '1f562',
  '1f563',
  '1f564',
  '1f565',
  '1f566',
  '1f567',
]);

let loaded: UnicodeEmojiData | null = null;

export function unicodeEmojiData(): UnicodeEmojiData {
  loaded ??= build();
  return loaded;
}

/** Zulip's code for an entry: the sequence without presentation selectors, lowercase. */
function entryCode(entry: DatasourceEntry): string {
  return (entry.non_qualified ?? entry.unified).toLowerCase();
}

/** Zulip's way of turning a Unicode name into an emoji name ("flag: Côte d’Ivoire" → "flag_côte_divoire"). */
function cleanupName(name: string): string {
  return name
    .replace(/[ \-–]/g, '_')
    .replace(/[“”:.,()‘’']/g, '')
    .replace(/&/g, 'and')
    .replace(/_{2,}/g, '_')
    .toLowerCase();
}

/**
 * Names for an emoji Zulip has not named by hand, best first. Zulip names these after their
 * Unicode (CLDR) names, written with underscores: flags become `flag_<country>`, and iamcal's
 * dashed names (`star-struck`) get underscores; iamcal's own spellings stay as aliases.
 */
function entryNames(entry: DatasourceEntry): string[] {
  const names: string[] = [];
  if (entry.category === 'Flags' && entry.name?.endsWith(' Flag')) {
    const flag = cleanupName(`flag ${entry.name.slice(0, -5)}`);
    // Names keep their accents; an ASCII spelling is accepted too.
    names.push(flag, flag.normalize('NFKD').replace(/\p{M}/gu, ''));
  }
  for (const short of entry.short_names) names.push(short.replace(/-/g, '_'), short);
  return [...new Set(names)];
}

function build(): UnicodeEmojiData {
  // Required here rather than imported so the data file is parsed on first use only.
  const entries = (require('emoji-datasource/emoji.json') as DatasourceEntry[]).slice().sort((a, b) => a.sort_order - b.sort_order);
  const nameToCode = new Map<string, string>();
  const codeToName = new Map<string, string>();
  const known = new Set(entries.map(entryCode));

  // Canonical names first: an alias never takes a name that is some emoji's canonical name.
  const zulip = zulipNamedEmoji().filter((e) => known.has(e.code));
  for (const { code, canonical } of zulip) {
    codeToName.set(code, canonical);
    nameToCode.set(canonical, code);
  }
  for (const { code, aliases } of zulip) {
    for (const alias of aliases) if (!nameToCode.has(alias)) nameToCode.set(alias, code);
  }

  for (const entry of entries) {
    const code = entryCode(entry);
    if (EXCLUDED.has(code)) continue;
    const free = entryNames(entry).filter((name) => !nameToCode.has(name));
    for (const name of free) nameToCode.set(name, code);
    if (codeToName.has(code)) continue;
    // An emoji whose iamcal names Zulip gave to others is still named, after its Unicode name.
    const fallback = entry.name
      ? entry.name
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '_')
          .replace(/^_|_$/g, '')
      : '';
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
