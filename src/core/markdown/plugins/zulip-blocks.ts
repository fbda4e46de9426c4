import { envOf, Md, StateCore, Token } from './types';
import { codeLanguageLabel } from '../code-languages';
import type { RenderEnv } from '../env';
import { escapeText } from '../html';
import { relativeToRealm } from '../url';

/**
 * Block-level output in Zulip's shapes: code blocks wrapped in `div.codehilite`, ```` ```quote ````
 * and ```` ```spoiler ```` fences, silent mentions inside quotes, links written relative to the
 * organization and never left without text, and text escaped the way Zulip escapes it.
 */
export function zulipBlocks(md: Md): void {
  md.core.ruler.before('inline', 'zulip_quote_marks', markQuotedInline);
  md.core.ruler.at('inline', parseInlineWithQuoteState);
  md.core.ruler.after('linkify', 'zulip_links', finishLinks);

  md.renderer.rules.fence = (tokens, idx, _options, env) => renderFence(md, tokens[idx], env as unknown as RenderEnv);
  md.renderer.rules.code_block = (tokens, idx) => codeBlock(tokens[idx].content, undefined);
  md.renderer.rules.text = (tokens, idx) => escapeText(tokens[idx].content);
  md.renderer.rules.code_inline = (tokens, idx) => `<code>${escapeText(tokens[idx].content)}</code>`;
  // A list nested in a tight list item follows the item's text directly, as in Zulip.
  for (const list of ['bullet_list_open', 'ordered_list_open'] as const) {
    md.renderer.rules[list] = (tokens, idx, options, _env, self) => {
      const html = self.renderToken(tokens, idx, options);
      const previous = tokens[idx - 1];
      return previous?.type === 'paragraph_close' && previous.hidden ? html.replace(/^\n/, '') : html;
    };
  }
  for (const cell of ['th_open', 'td_open'] as const) {
    md.renderer.rules[cell] = (tokens, idx, options, _env, self) => {
      const style = tokens[idx].attrGet('style');
      const align = typeof style === 'string' ? /^text-align:(\w+)$/.exec(style) : null;
      if (align) tokens[idx].attrSet('style', `text-align: ${align[1]};`);
      return self.renderToken(tokens, idx, options);
    };
  }
}

/** Flags the inline content of blockquotes, where mentions do not notify anyone. */
function markQuotedInline(state: StateCore): void {
  let depth = 0;
  for (const token of state.tokens) {
    if (token.type === 'blockquote_open') depth++;
    else if (token.type === 'blockquote_close') depth--;
    else if (token.type === 'inline' && depth > 0) token.meta = { ...(token.meta ?? {}), inQuote: true };
  }
}

function parseInlineWithQuoteState(state: StateCore): void {
  const env = envOf(state);
  for (const token of state.tokens) {
    if (token.type !== 'inline') continue;
    env.inQuote = env.quoteDepth > 0 || Boolean(token.meta?.inQuote);
    state.md.inline.parse(token.content, state.md, state.env, token.children ?? (token.children = []));
  }
  env.inQuote = env.quoteDepth > 0;
}

function finishLinks(state: StateCore): void {
  const env = envOf(state);
  for (const block of state.tokens) {
    const children = block.children;
    if (block.type !== 'inline' || !children) continue;
    for (let i = 0; i < children.length; i++) {
      const open = children[i];
      if (open.type !== 'link_open') continue;
      const href = relativeToRealm(String(open.attrGet('href') ?? ''), env.ctx.realmUrl);
      open.attrSet('href', href);
      // `[](url)` and `[  ](url)` show the address itself.
      let close = i + 1;
      while (close < children.length && children[close].type === 'text' && children[close].content.trim() === '') close++;
      if (children[close]?.type === 'link_close') {
        const text = new state.Token('text', '', 0);
        text.content = href;
        text.level = open.level + 1;
        children.splice(i + 1, close - i - 1, text);
      }
    }
  }
}

const FENCE_INFO = /^\{?\.?([a-zA-Z0-9_+\-./#]+)[ ]*([^ ~`][^~`]*)?\}?$/;

function renderFence(md: Md, token: Token, env: RenderEnv): string {
  const info = FENCE_INFO.exec(token.info.trim());
  // A fence naming no language takes the organization's default, quote and spoiler included (as in Zulip).
  const lang = info?.[1].toLowerCase() || env.ctx.defaultCodeLanguage.toLowerCase() || undefined;
  const header = info?.[2]?.trim();
  if (lang === 'quote' || lang === 'quoted') {
    if (token.content === '') return '';
    return `<blockquote>\n${renderNested(md, token.content, env, 1)}</blockquote>\n`;
  }
  if (lang === 'spoiler') {
    const headerHtml = header ? renderNested(md, header, env, 0) : '';
    return (
      `<div class="spoiler-block"><div class="spoiler-header">\n${headerHtml}</div>` +
      `<div class="spoiler-content" aria-hidden="true">\n${renderNested(md, token.content, env, 0)}</div></div>\n`
    );
  }
  return codeBlock(token.content, lang);
}

/** Markdown inside a quote or spoiler, rendered with the same context and mention record. */
function renderNested(md: Md, src: string, env: RenderEnv, extraQuoteDepth: number): string {
  const depth = env.quoteDepth;
  env.quoteDepth = depth + extraQuoteDepth;
  try {
    return md.render(src, env as unknown as Record<string, unknown>);
  } finally {
    env.quoteDepth = depth;
    env.inQuote = depth > 0;
  }
}

function escapeCode(text: string): string {
  return escapeText(text).replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** Trailing spaces and surrounding blank lines are dropped, as Zulip's highlighter does. */
function codeBlock(content: string, lang: string | undefined): string {
  if (content === '') return '';
  const code = content
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/^\n+|\n+$/g, '');
  const language = lang ? ` data-code-language="${escapeCode(codeLanguageLabel(lang))}"` : '';
  return `<div class="codehilite"${language}><pre><span></span><code>${escapeCode(code)}\n</code></pre></div>\n`;
}
