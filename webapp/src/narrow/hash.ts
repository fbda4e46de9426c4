import { canonicalOperator, type Narrow } from './narrow';

/**
 * Zulip's URLs: `#narrow/channel/12-general/topic/hello`, `#narrow/dm/4,5-dm`, `.../near/123`,
 * `#inbox`, `#recent`, `#feed`, `#settings/...`, `#organization/...`. Links from Zulip's emails, apps
 * and rendered messages open the same view here.
 */
export type Route =
  | { view: 'narrow'; narrow: Narrow; near: number | null }
  | { view: 'inbox' }
  | { view: 'recent' }
  | { view: 'drafts' }
  | { view: 'channels' }
  | { view: 'settings'; section: string }
  | { view: 'organization'; section: string };

/** Zulip's hash encoding: percent-encoding with `.` for `%`, so that the hash survives other parsers. */
export function encodeHashComponent(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/\./g, '%2E')
    .replace(/%/g, '.');
}

export function decodeHashComponent(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\./g, '%'));
  } catch {
    return text;
  }
}

/** `12-general` → `12`; an operand without a leading id is kept (a channel name). */
function leadingId(operand: string, pattern: RegExp): string {
  const match = pattern.exec(operand);
  return match ? match[1] : operand;
}

export function parseHash(hash: string): Route {
  const parts = hash.replace(/^#/, '').split('/');
  const head = parts[0];
  if (head === 'narrow') {
    const narrow: Narrow = [];
    let near: number | null = null;
    for (let i = 1; i + 1 < parts.length; i += 2) {
      let operator = decodeHashComponent(parts[i]);
      const negated = operator.startsWith('-');
      if (negated) operator = operator.slice(1);
      operator = canonicalOperator(operator);
      let operand = decodeHashComponent(parts[i + 1]);
      if (operator === 'channel') operand = leadingId(operand, /^(\d+)(?:-|$)/);
      if (operator === 'dm' || operator === 'dm-including') operand = leadingId(operand, /^([\d,]+)(?:-|$)/);
      if (operator === 'near' || operator === 'with') {
        if (/^\d+$/.test(operand)) near = Number(operand);
        if (operator === 'near') continue;
      }
      narrow.push(negated ? { operator, operand, negated } : { operator, operand });
    }
    return { view: 'narrow', narrow, near };
  }
  if (head === 'inbox') return { view: 'inbox' };
  if (head === 'recent' || head === 'recent_topics') return { view: 'recent' };
  if (head === 'drafts') return { view: 'drafts' };
  if (head === 'channels' || head === 'streams') return { view: 'channels' };
  if (head === 'settings') return { view: 'settings', section: parts[1] || 'profile' };
  if (head === 'organization') return { view: 'organization', section: parts[1] || 'organization-profile' };
  if (head === 'starred') return { view: 'narrow', narrow: [{ operator: 'is', operand: 'starred' }], near: null };
  if (head === 'mentions') return { view: 'narrow', narrow: [{ operator: 'is', operand: 'mentioned' }], near: null };
  // #feed, #all_messages: the combined feed (an empty hash is the home view, resolved in app/route.ts).
  return { view: 'narrow', narrow: [], near: null };
}

export interface NameLookup {
  channelName(id: number): string | undefined;
  userEmail?(id: number): string | undefined;
}

/** The hash of a narrow, as Zulip writes it. */
export function narrowHash(narrow: Narrow, lookup: NameLookup, near: number | null = null): string {
  if (narrow.length === 0 && near === null) return '#feed';
  const parts = ['#narrow'];
  for (const term of narrow) {
    const operator = canonicalOperator(term.operator);
    let operand = encodeHashComponent(term.operand);
    if (operator === 'channel' && /^\d+$/.test(term.operand)) {
      const name = lookup.channelName(Number(term.operand));
      operand = name === undefined ? term.operand : `${term.operand}-${encodeHashComponent(name.replace(/ /g, '-'))}`;
    } else if ((operator === 'dm' || operator === 'dm-including') && /^[\d,]+$/.test(term.operand)) {
      // People slugs stay readable, as Zulip writes them: 4,5-group.
      operand = `${term.operand}-${term.operand.split(',').length > 1 ? 'group' : 'dm'}`;
    }
    parts.push(encodeHashComponent(term.negated ? `-${operator}` : operator), operand);
  }
  if (near !== null) parts.push('near', String(near));
  return parts.join('/');
}

export function routeHash(route: Route, lookup: NameLookup): string {
  switch (route.view) {
    case 'narrow':
      return narrowHash(route.narrow, lookup, route.near);
    case 'settings':
      return `#settings/${route.section}`;
    case 'organization':
      return `#organization/${route.section}`;
    default:
      return `#${route.view}`;
  }
}
