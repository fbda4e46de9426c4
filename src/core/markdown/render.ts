import MarkdownIt from 'markdown-it';
import { EMPTY_CONTEXT, RenderContext } from './context';
import { MentionSummary, newEnv, summarize } from './env';
import { imageSyntax } from './plugins/image-syntax';
import { inlineImages } from './plugins/inline-images';
import { linkifiers } from './plugins/linkifiers';
import { unicodeEmoji } from './plugins/unicode-emoji';
import { zulipBlocks } from './plugins/zulip-blocks';
import { zulipInline } from './plugins/zulip-inline';
import { isAllowedHref, withDefaultScheme } from './url';

export interface RenderResult {
  html: string;
  mentions: MentionSummary;
}

/** File extensions that look like top-level domains; Zulip does not autolink "readme.md". */
const NOT_AUTOLINKED_TLDS = new Set(['java', 'md', 'mov', 'py', 'zip']);

/**
 * Zulip-flavored Markdown on markdown-it: raw HTML is escaped, only safe link schemes are
 * linked, newlines are line breaks, and Zulip's syntax (mentions, channel links, emoji) comes
 * from the plugins. The output is the HTML Zulip stores as `rendered_content`.
 */
function createRenderer(withLinkifiers: boolean): MarkdownIt.MarkdownIt {
  const md = new MarkdownIt('default', { html: false, linkify: true, breaks: true, typographer: false });
  // Zulip has no setext headings, reference links or <angle> autolinks; GFM's strikethrough is
  // replaced by Zulip's looser one.
  md.disable(['lheading', 'reference', 'autolink', 'strikethrough']);

  const normalize = md.normalizeLink.bind(md);
  md.normalizeLink = (url: string) => normalize(withDefaultScheme(url));
  md.validateLink = (url: string) => isAllowedHref(url);

  // Only web addresses, bare domains and e-mail addresses are linked automatically.
  md.linkify.set({ fuzzyLink: true, fuzzyEmail: true, fuzzyIP: false });
  md.linkify.add('ftp:', null).add('//', null);
  // linkify-it runs a dozen large Unicode patterns over every text, and most messages hold no
  // link: without a scheme it validates, an "@" or a dot before a top-level domain's first letter,
  // none of them can match.
  const test = md.linkify.test.bind(md.linkify);
  md.linkify.test = (text: string) => mayHoldLink(text) && test(text);
  const match = md.linkify.match.bind(md.linkify);
  md.linkify.match = (text: string) => (match(text) ?? []).filter((m) => m.schema !== '' || !NOT_AUTOLINKED_TLDS.has(hostTld(m.url)));

  zulipInline(md);
  zulipBlocks(md);
  unicodeEmoji(md);
  inlineImages(md);
  imageSyntax(md);
  if (withLinkifiers) linkifiers(md);
  return md;
}

const LINK_INGREDIENT = /@|\.\p{L}|https?:|mailto:/iu;

/** False only for text in which the linkifier (as configured here) can find no link. */
export function mayHoldLink(text: string): boolean {
  return LINK_INGREDIENT.test(text);
}

function hostTld(url: string): string {
  const host = url.replace(/^[a-z]+:\/\//i, '').split(/[/?#:]/)[0];
  return host.slice(host.lastIndexOf('.') + 1).toLowerCase();
}

let renderer: MarkdownIt.MarkdownIt | null = null;
let linkifyingRenderer: MarkdownIt.MarkdownIt | null = null;

/** Organizations without linkifiers get a renderer without their rules, which costs nothing extra. */
function markdownIt(withLinkifiers: boolean): MarkdownIt.MarkdownIt {
  if (withLinkifiers) return (linkifyingRenderer ??= createRenderer(true));
  renderer ??= createRenderer(false);
  return renderer;
}

function render(content: string, ctx: RenderContext, mentionsEnabled: boolean): RenderResult {
  const env = newEnv(ctx, mentionsEnabled);
  const html = markdownIt(ctx.linkifiers.length > 0)
    .render(content, env as unknown as Record<string, unknown>)
    .replace(/\n+$/, '');
  return { html, mentions: summarize(env) };
}

/** Renders message content; `mentions` says who it mentions, for the message flags. */
export function renderMarkdown(content: string, ctx: RenderContext = EMPTY_CONTEXT): RenderResult {
  return render(content, ctx, true);
}

/** Renders a channel or folder description: the same Markdown, but mentions stay text. */
export function renderDescription(markdown: string, ctx: RenderContext = EMPTY_CONTEXT): string {
  return render(markdown, ctx, false).html;
}
