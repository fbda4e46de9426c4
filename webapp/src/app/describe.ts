import type { Route } from '../narrow/hash';
import { canonicalOperator } from '../narrow/narrow';
import { narrowToSearch } from '../narrow/search';
import type { AppState } from '../state/store';
import { searchLookup } from './search-lookup';

/** What a view is called, in words: for the narrow header and the tab title. */
export interface RouteDescription {
  title: string;
  channelId?: number;
  topic?: string;
  dmNames?: string[];
  search?: string;
}

const NAMED: Record<string, string> = {
  'is:mentioned': 'Mentions',
  'is:starred': 'Starred messages',
  'is:dm': 'Direct messages',
  'is:unread': 'Unread messages',
  'is:resolved': 'Resolved topics',
  'in:home': 'Combined feed',
};

export function describeRoute(route: Route, state: AppState): RouteDescription {
  switch (route.view) {
    case 'inbox':
      return { title: 'Inbox' };
    case 'recent':
      return { title: 'Recent conversations' };
    case 'drafts':
      return { title: 'Drafts' };
    case 'channels':
      return { title: 'Channels' };
    case 'settings':
      return { title: 'Settings' };
    case 'organization':
      return { title: 'Organization settings' };
    default:
      break;
  }
  const narrow = route.narrow;
  if (narrow.length === 0) return { title: 'Combined feed' };
  const plain = narrow.every((t) => !t.negated);
  const ops = narrow.map((t) => canonicalOperator(t.operator));
  if (plain && narrow.length === 1 && NAMED[`${ops[0]}:${narrow[0].operand}`]) return { title: NAMED[`${ops[0]}:${narrow[0].operand}`] };
  const only = (...allowed: string[]) => plain && ops.every((o) => allowed.includes(o));
  const channel = narrow.find((t) => canonicalOperator(t.operator) === 'channel');
  if (channel && only('channel', 'topic')) {
    const id = Number(channel.operand);
    const name = state.channels.get(id)?.name ?? channel.operand;
    const topic = narrow.find((t) => canonicalOperator(t.operator) === 'topic')?.operand;
    return { title: topic !== undefined ? `#${name} > ${topic}` : `#${name}`, channelId: id, topic };
  }
  const dm = narrow.find((t) => canonicalOperator(t.operator) === 'dm');
  if (dm && only('dm')) {
    const ids = dm.operand.split(',').map(Number);
    const names = ids.map((id) => state.users.get(id)?.full_name ?? String(id));
    return { title: names.join(', '), dmNames: names };
  }
  const search = narrowToSearch(narrow, searchLookup);
  return { title: `Search results for ${search}`, search };
}
