import { envOf, Md, StateInline } from './types';
import { CompiledLinkifier, MATCH_GROUP } from '../../linkifiers/compiled';
import { expandUrlTemplate } from '../../linkifiers/template';
import { element } from '../html';
import { isAllowedHref, relativeToRealm, withDefaultScheme } from '../url';

/**
 * The organization's linkifiers, applied as Zulip applies them: after code, mentions, channel links,
 * times and web links have taken their text, before emphasis and emoji; each linkifier in order
 * takes every match it finds (left to right) in text no earlier linkifier took. A match becomes
 * `<a href="...">matched text</a>`; one whose URL is not linkable stays text.
 *
 * Matches are found once per inline text (`claimsOf`); the rule emits a claim where the parser
 * reaches its start, and the text rule is replaced by one that stops at claim starts.
 */
export function linkifiers(md: Md): void {
  md.inline.ruler.before('zulip_underscore', 'zulip_linkifier', linkifierRule);
  md.inline.ruler.at('text', textUntilClaim);
}

interface Claim {
  start: number;
  end: number;
  html: string;
}

/** Claims by start position, computed once per inline text. */
const claimCache = new WeakMap<object, { src: string; byStart: Map<number, Claim>; starts: number[] }>();

function claimsOf(state: StateInline) {
  let cached = claimCache.get(state);
  if (!cached || cached.src !== state.src) {
    const env = envOf(state);
    const claims = findClaims(state.src, env.ctx.linkifiers, env.ctx.realmUrl);
    cached = { src: state.src, byStart: new Map(claims.map((c) => [c.start, c])), starts: claims.map((c) => c.start) };
    claimCache.set(state, cached);
  }
  return cached;
}

function linkifierRule(state: StateInline, silent: boolean): boolean {
  // Link text stays as written, and scanning for a link's end never skips a claim.
  if (silent || state.linkLevel > 0 || envOf(state).ctx.linkifiers.length === 0) return false;
  const claim = claimsOf(state).byStart.get(state.pos);
  if (!claim || claim.end > state.posMax) return false;
  const token = state.push('zulip_html', '', 0);
  token.content = claim.html;
  state.pos = claim.end;
  return true;
}

/** markdown-it's characters that may start some syntax: plain text runs stop before them. */
const TERMINATORS = new Set([
  0x0a, 0x21, 0x23, 0x24, 0x25, 0x26, 0x2a, 0x2b, 0x2d, 0x3a, 0x3c, 0x3d, 0x3e, 0x40, 0x5b, 0x5c, 0x5d, 0x5e, 0x5f, 0x60, 0x7b, 0x7d, 0x7e,
]);

/** markdown-it's text rule, also stopping where a linkifier match starts. */
function textUntilClaim(state: StateInline, silent: boolean): boolean {
  let stop = state.posMax;
  if (envOf(state).ctx.linkifiers.length > 0 && state.linkLevel === 0) {
    const starts = claimsOf(state).starts;
    // A claim starting right here is the linkifier rule's (which runs after this one).
    const next = starts.find((s) => s >= state.pos);
    if (next !== undefined && next < stop) stop = next;
  }
  let pos = state.pos;
  while (pos < stop && !TERMINATORS.has(state.src.charCodeAt(pos))) pos++;
  if (pos === state.pos) return false;
  if (!silent) state.pending += state.src.slice(state.pos, pos);
  state.pos = pos;
  return true;
}

/** Stands in for text a linkifier took, so later ones neither match it nor start right after it. */
const TAKEN = '\u0002';

function findClaims(src: string, list: readonly CompiledLinkifier[], realmUrl: string | undefined): Claim[] {
  const claims: Claim[] = [];
  let text = src;
  for (const linkifier of list) {
    const found: Claim[] = [];
    const matcher = linkifier.regex.matcher(text);
    let from = 0;
    while (from <= text.length && matcher.find(from)) {
      const start = matcher.start(MATCH_GROUP);
      const end = matcher.end(MATCH_GROUP);
      // The character after a match may open the next one.
      from = Math.max(end, from + 1);
      if (end === start || text.slice(start, end).includes(TAKEN)) continue;
      const href = linkableHref(expandUrlTemplate(linkifier.template, groupValues(matcher.getNamedGroups())), realmUrl);
      if (href === null) continue;
      found.push({ start, end, html: element('a', { href }, src.slice(start, end)) });
    }
    for (const claim of found) text = text.slice(0, claim.start) + TAKEN.repeat(claim.end - claim.start) + text.slice(claim.end);
    claims.push(...found);
  }
  return claims.sort((a, b) => a.start - b.start);
}

function groupValues(groups: Record<string, string | null>): Map<string, string | null> {
  return new Map(Object.entries(groups));
}

const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;

/** The link a linkifier's URL becomes, as for any link: a safe scheme (http assumed), local links relative. */
function linkableHref(url: string, realmUrl: string | undefined): string | null {
  let href = withDefaultScheme(url.replace(/ /g, '%20'));
  href = href.replace(SCHEME, (scheme) => scheme.toLowerCase());
  // An empty query or fragment is dropped when the URL is put back together.
  href = href.replace(/\?(?=#|$)/, '').replace(/#$/, '');
  if (!isAllowedHref(href)) return null;
  return relativeToRealm(href, realmUrl);
}
