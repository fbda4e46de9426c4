/**
 * Emoji codes are the lowercase hex code points of an emoji joined by dashes ("1f44d",
 * "1f1fa-1f1f8"), with the emoji-presentation selector U+FE0F left out, as Zulip writes them.
 */
const CODE_SYNTAX = /^[0-9a-f]{4,6}(?:-[0-9a-f]{4,6})*$/;

/** Whether a string has the shape of an emoji code (it may still name no emoji). */
export function isEmojiCodeSyntax(code: string): boolean {
  if (!CODE_SYNTAX.test(code)) return false;
  return code.split('-').every((part) => Number.parseInt(part, 16) <= 0x10ffff);
}

/** The code of an emoji string, without presentation selectors ("👍️" → "1f44d"). */
export function emojiToCode(emoji: string): string {
  const points: string[] = [];
  for (const char of emoji) {
    const point = char.codePointAt(0)!;
    if (point === 0xfe0f) continue;
    points.push(point.toString(16).padStart(4, '0'));
  }
  return points.join('-');
}

/** The emoji string for a code ("1f1fa-1f1f8" → "🇺🇸"). */
export function codeToEmoji(code: string): string {
  return String.fromCodePoint(...code.split('-').map((part) => Number.parseInt(part, 16)));
}
