import { Md, StateCore, Token } from './types';
import { emojiToCode } from '../../emoji/codes';
import { emojiNameForCode } from '../../emoji/data';
import { unicodeEmojiHtml } from './zulip-inline';

/**
 * Emoji typed as Unicode characters render like `:name:` emoji. Candidates are emoji sequences
 * per Unicode TR51 (with modifiers, keycaps, tags and ZWJ joins); a lone character that is
 * displayed as text by default (digits, ©, arrows) is left alone, as is anything inside a link.
 */
const ELEMENT = String.raw`(?:\p{RI}\p{RI}|\p{Emoji}(?:\p{EMod}|\uFE0F\u20E3?|[\u{E0020}-\u{E007E}]+\u{E007F})?)`;
const POSSIBLE_EMOJI = new RegExp(`${ELEMENT}(?:\\u200D${ELEMENT})*`, 'gu');
const TEXT_PRESENTATION = /^\P{Emoji_Presentation}\u20E3?$/u;
/** Quick test: every emoji sequence holds a character outside ASCII (keycaps hold U+FE0F or U+20E3). */
const MAY_HOLD_EMOJI = /[^\x00-\x7f]/;

export function unicodeEmoji(md: Md): void {
  md.core.ruler.push('zulip_unicode_emoji', (state) => {
    for (const block of state.tokens) {
      if (block.type !== 'inline' || !block.children) continue;
      const out: Token[] = [];
      let linkDepth = 0;
      for (const token of block.children) {
        if (token.type === 'link_open') linkDepth++;
        if (token.type === 'link_close') linkDepth--;
        if (token.type !== 'text' || linkDepth > 0 || !MAY_HOLD_EMOJI.test(token.content)) {
          out.push(token);
          continue;
        }
        out.push(...splitEmoji(state, token));
      }
      block.children = out;
    }
  });
}

function splitEmoji(state: StateCore, token: Token): Token[] {
  const text = token.content;
  const parts: Token[] = [];
  let last = 0;
  const pushText = (content: string) => {
    if (!content) return;
    const t = new state.Token('text', '', 0);
    t.content = content;
    t.level = token.level;
    parts.push(t);
  };
  for (const match of text.matchAll(POSSIBLE_EMOJI)) {
    const sequence = match[0];
    if (TEXT_PRESENTATION.test(sequence)) continue;
    const code = emojiToCode(sequence);
    const name = emojiNameForCode(code);
    if (!name) continue;
    pushText(text.slice(last, match.index));
    const html = new state.Token('zulip_html', '', 0);
    html.content = unicodeEmojiHtml(code, name);
    html.level = token.level;
    parts.push(html);
    last = match.index! + sequence.length;
  }
  if (last === 0) return [token];
  pushText(text.slice(last));
  return parts;
}
