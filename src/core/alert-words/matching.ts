/**
 * Which alert words a message contains, by Zulip's rules: case-insensitive, anywhere in the
 * content except inside code blocks fenced with ``` or ~~~ (quote, spoiler and similar blocks
 * still count), and only as a whole word: the character before the match must be the start of
 * the text or one of ` \n(".,';[*\`>`, the one after it the end or one of ` \n)?:.,';]!*\``.
 * As in Zulip, the check before a match looks one character further back, so a match beginning
 * at the second character of the text counts whatever precedes it.
 */
const ALLOWED_BEFORE = new Set([' ', '\n', '(', '"', '.', ',', "'", ';', '[', '*', '`', '>']);
const ALLOWED_AFTER = new Set([' ', '\n', ')', '?', ':', '.', ',', "'", ';', ']', '!', '*', '`']);

/** The longest alert word (or phrase) a user may add. */
export const MAX_ALERT_WORD_LENGTH = 100;

/** Lower-cased alert word → the users who set it. */
export type AlertWordIndex = ReadonlyMap<string, readonly number[]>;

const FENCE_OPEN = /^(\s*(`{3,}|~{3,}))[ ]*(?:\{?\.?([^\s`~}]*)\}?)?.*$/;
/** Fenced blocks whose content is rendered as Markdown rather than kept as code. */
const MARKDOWN_FENCES = new Set(['quote', 'spoiler']);

/** The text alert words are looked for in: line endings and tabs normalized, code fences dropped. */
export function alertWordText(content: string): string {
  const lines = content.replace(/\r\n?/g, '\n').replace(/\t/g, '    ').split('\n');
  const out: string[] = [];
  let fence: string | null = null;
  for (const line of lines) {
    if (fence !== null) {
      if (line.trim() === fence) fence = null;
      continue;
    }
    const open = FENCE_OPEN.exec(line);
    if (open && !MARKDOWN_FENCES.has((open[3] ?? '').toLowerCase())) {
      fence = open[2];
      out.push('');
      continue;
    }
    out.push(line);
  }
  return out.join('\n').toLowerCase();
}

function validStart(text: string, index: number): boolean {
  return index <= 0 || ALLOWED_BEFORE.has(text[index]);
}

function validEnd(text: string, index: number): boolean {
  return index >= text.length || ALLOWED_AFTER.has(text[index]);
}

/** The users any of whose alert words the message content holds. */
export function usersAlertedBy(index: AlertWordIndex, content: string): Set<number> {
  const alerted = new Set<number>();
  if (index.size === 0) return alerted;
  const text = alertWordText(content);
  for (const [word, userIds] of index) {
    for (let at = text.indexOf(word); at !== -1; at = text.indexOf(word, at + 1)) {
      if (validStart(text, at - 1) && validEnd(text, at + word.length)) {
        for (const id of userIds) alerted.add(id);
        break;
      }
    }
  }
  return alerted;
}
