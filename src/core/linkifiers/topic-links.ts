import MarkdownIt from 'markdown-it';
import { AFTER_GROUP, CompiledLinkifier, MATCH_GROUP } from './compiled';
import { expandUrlTemplate } from './template';

/**
 * A message's `topic_links`, as Zulip computes them: every match of the organization's linkifiers
 * in the topic, with the URL its template makes, and the web links written in the topic (an
 * address without a scheme gets https). Where matches overlap, an earlier linkifier wins over a
 * later one, and any linkifier over a web link; the result is in the order of the topic.
 */
export interface TopicLink {
  text: string;
  url: string;
}

interface Found extends TopicLink {
  index: number;
  /** The linkifier's position in the organization's order; null for a web link. */
  precedence: number | null;
}

// Zulip looks for a web link at the start of each piece of the topic between these characters.
const LINK_SPLITTER = /[ !;),'"]/;

const webLinks = new MarkdownIt('default', { linkify: true }).linkify;
webLinks.set({ fuzzyLink: true, fuzzyEmail: false, fuzzyIP: false });

function linkifierMatches(topic: string, linkifiers: readonly CompiledLinkifier[]): Found[] {
  const found: Found[] = [];
  linkifiers.forEach((linkifier, precedence) => {
    const matcher = linkifier.regex.matcher(topic);
    let from = 0;
    while (from <= topic.length && matcher.find(from)) {
      const start = matcher.start(MATCH_GROUP);
      const end = matcher.end(MATCH_GROUP);
      const groups = matcher.getNamedGroups();
      // The character after a match may open the next one.
      from = Math.max(matcher.end() - (groups[AFTER_GROUP] ?? '').length, from + 1);
      if (end === start) continue;
      const url = expandUrlTemplate(linkifier.template, new Map(Object.entries(groups)));
      found.push({ text: topic.slice(start, end), url, index: start, precedence });
    }
  });
  return found.sort((a, b) => a.precedence! - b.precedence! || a.index - b.index);
}

function rawLinks(topic: string): Found[] {
  const found: Found[] = [];
  let pos = 0;
  while (pos < topic.length) {
    const split = topic.slice(pos).search(LINK_SPLITTER);
    const end = split === -1 ? topic.length : pos + split;
    const piece = topic.slice(pos, end);
    const match = piece === '' ? null : webLinks.match(piece)?.[0];
    if (match && match.index === 0) {
      const text = match.raw;
      found.push({ text, url: match.schema === '' ? `https://${text}` : text, index: pos, precedence: null });
    }
    pos = end + 1;
  }
  return found;
}

const overlaps = (a: Found, b: Found) => (b.index <= a.index && a.index < b.index + b.text.length) || (a.index <= b.index && b.index < a.index + a.text.length);

export function topicLinks(topic: string, linkifiers: readonly CompiledLinkifier[]): TopicLink[] {
  if (topic === '') return [];
  const applied: Found[] = [];
  for (const candidate of [...linkifierMatches(topic, linkifiers), ...rawLinks(topic)]) {
    if (applied.every((kept) => !overlaps(kept, candidate))) applied.push(candidate);
  }
  return applied.sort((a, b) => a.index - b.index).map(({ text, url }) => ({ text, url }));
}
