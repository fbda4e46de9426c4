import { useApp } from '../../state/store';

/** `1f44d` or `1f468-200d-1f4bb` → the characters; presentation selectors are left to the font. */
export function unicodeFromCode(code: string): string {
  try {
    const points = code.split('-').map((hex) => Number.parseInt(hex, 16));
    // A lone symbol that also has a text form (☺, ❤) is shown in its emoji form.
    if (points.length === 1 && points[0] < 0x1f000) points.push(0xfe0f);
    return String.fromCodePoint(...points);
  } catch {
    return '';
  }
}

/** One emoji as a reaction names it: Unicode by code, a custom emoji by its id, or one of the server's by name. */
export function EmojiGlyph({ name, code, type }: { name: string; code: string; type: string }) {
  const custom = useApp((s) => (type === 'realm_emoji' ? s.realmEmoji[code] : undefined));
  if (type === 'realm_emoji') {
    return custom ? <img className="emoji" src={custom.source_url} alt={`:${name}:`} /> : <span>:{name}:</span>;
  }
  // The server's own emoji (`:zulip:`) are named: it does not serve their images.
  if (type !== 'unicode_emoji') return <span>:{name}:</span>;
  // The character is drawn by CSS from the attribute, so that the element's text stays empty (a pill's text is its count).
  return <span className="emoji emoji-glyph" role="img" aria-label={name.replace(/_/g, ' ')} data-glyph={unicodeFromCode(code)} />;
}
