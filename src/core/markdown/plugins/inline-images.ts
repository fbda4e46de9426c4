import { inlineImageHtml, uploadPathIdOf } from '../image-preview';
import { envOf, Md, StateCore, Token } from './types';

/**
 * Previews of uploaded images, placed as Zulip's InlineInterestingLinkProcessor places them: after
 * the paragraph holding the link (in link order), at the end of a tight list item, or at the end
 * of the message for links nested in emphasis, headings or tables. Links in quotes get none, each
 * address is previewed once, and a message with more than 24 distinct addresses gets none at all.
 * A paragraph (or list item link) that only repeats the address is replaced by the preview.
 */
export function inlineImages(md: Md): void {
  md.core.ruler.push('zulip_inline_images', addInlineImages);
}

const INLINE_PREVIEW_LIMIT_PER_MESSAGE = 24;

interface FoundLink {
  href: string;
  /** The link's own text before any nested element; null when it starts with one. */
  text: string | null;
  /** Depth in Zulip's element tree, for its breadth-first order. */
  depth: number;
  order: number;
  inline: number;
  child: number;
  /** Whether the link sits directly in its block (not inside emphasis and the like). */
  direct: boolean;
  /** The open tokens of the enclosing block and of its container. */
  block: number;
  parent: number | undefined;
}

function addInlineImages(state: StateCore): void {
  const env = envOf(state);
  const lookup = env.ctx.uploadPreview;
  if (!lookup || env.quoteDepth > 0) return;
  const tokens = state.tokens;
  const found = findLinks(tokens);
  if (new Set(found.map((l) => l.href)).size > INLINE_PREVIEW_LIMIT_PER_MESSAGE) return;
  found.sort((a, b) => a.depth - b.depth || a.order - b.order);

  const after = new Map<number, string[]>();
  const atEnd: string[] = [];
  const removed = new Set<number>();
  const dropped: { children: Token[]; from: number; count: number }[] = [];
  const processed = new Set<string>();
  const add = (index: number, html: string) => after.set(index, [...(after.get(index) ?? []), html]);
  for (const link of found) {
    if (processed.has(link.href)) continue;
    processed.add(link.href);
    const pathId = uploadPathIdOf(link.href);
    const preview = pathId === null ? undefined : lookup(pathId);
    if (!preview) continue;
    const sameAsAddress = link.text === null || link.text === link.href;
    const html = inlineImageHtml(link.href, sameAsAddress ? null : link.text, preview);
    const block = tokens[link.block];
    const children = tokens[link.inline].children!;
    const close = linkClose(children, link.child);
    if (link.direct && block.type === 'paragraph_open' && !block.hidden) {
      const blockClose = matchingClose(tokens, link.block);
      add(blockClose, html);
      if (sameAsAddress && onlyElement(children, link.child, close)) for (let i = link.block; i <= blockClose; i++) removed.add(i);
    } else if (link.direct && block.type === 'paragraph_open' && link.parent !== undefined && tokens[link.parent].type === 'list_item_open') {
      add(matchingClose(tokens, link.parent) - 1, html);
      if (sameAsAddress && !textBefore(children, link.child) && !textAfter(children, close))
        dropped.push({ children, from: link.child, count: close - link.child + 1 });
    } else {
      atEnd.push(html);
    }
  }
  // Last first, so that earlier positions in the same block still hold.
  dropped.sort((a, b) => b.from - a.from).forEach((d) => d.children.splice(d.from, d.count));
  if (after.size === 0 && atEnd.length === 0) return;
  const out: Token[] = [];
  tokens.forEach((token, i) => {
    if (!removed.has(i)) out.push(token);
    for (const html of after.get(i) ?? []) out.push(htmlBlock(state, html));
  });
  for (const html of atEnd) out.push(htmlBlock(state, html));
  tokens.splice(0, tokens.length, ...out);
}

function findLinks(tokens: Token[]): FoundLink[] {
  const found: FoundLink[] = [];
  const stack: number[] = [];
  let quotes = 0;
  tokens.forEach((token, i) => {
    if (token.nesting === 1) {
      stack.push(i);
      if (token.type === 'blockquote_open') quotes++;
      return;
    }
    if (token.nesting === -1) {
      stack.pop();
      if (token.type === 'blockquote_close') quotes--;
      return;
    }
    if (token.type !== 'inline' || quotes > 0 || !token.children || stack.length === 0) return;
    const blockDepth = stack.filter((j) => !tokens[j].hidden).length;
    let depth = 0;
    token.children.forEach((child, c) => {
      if (child.type === 'link_open') {
        found.push({
          href: String(child.attrGet('href') ?? ''),
          text: linkText(token.children!, c),
          depth: blockDepth + depth + 1,
          order: found.length,
          inline: i,
          child: c,
          direct: depth === 0,
          block: stack[stack.length - 1],
          parent: stack[stack.length - 2],
        });
      }
      depth += child.nesting;
    });
  });
  return found;
}

function linkText(children: Token[], open: number): string | null {
  let text = '';
  for (let i = open + 1; i < children.length && children[i].type === 'text'; i++) text += children[i].content;
  return text === '' ? null : text;
}

function linkClose(children: Token[], open: number): number {
  let depth = 0;
  for (let i = open; i < children.length; i++) {
    depth += children[i].nesting;
    if (depth === 0) return i;
  }
  return children.length - 1;
}

function matchingClose(tokens: Token[], open: number): number {
  let depth = 0;
  for (let i = open; i < tokens.length; i++) {
    depth += tokens[i].nesting;
    if (depth === 0) return i;
  }
  return tokens.length - 1;
}

const isBlankText = (t: Token) => t.type === 'text' && (t.content === '' || t.content === '\n');

/** The link is its paragraph's only element, with no text around it. */
function onlyElement(children: Token[], open: number, close: number): boolean {
  return children.every((t, i) => (i >= open && i <= close) || isBlankText(t));
}

/** Text ahead of the block's first element (what Zulip reads as the list item's own text). */
function textBefore(children: Token[], open: number): boolean {
  for (let i = 0; i < open && children[i].type === 'text'; i++) if (children[i].content !== '') return true;
  return false;
}

/** Text right after the link, before any other element (the link's "tail"). */
function textAfter(children: Token[], close: number): boolean {
  for (let i = close + 1; i < children.length && children[i].type === 'text'; i++) if (children[i].content !== '') return true;
  return false;
}

function htmlBlock(state: StateCore, html: string): Token {
  const token = new state.Token('html_block', '', 0);
  token.content = html;
  return token;
}
