import { graphQLClient } from '../api/instance';
import { MessagesQuery, UpdateFlagsMutation } from '../api/operations/messages';
import { type Narrow, narrowKey, toGraphQLNarrow } from '../narrow/narrow';
import { addMessages } from './apply-event';
import { fromGraphQL } from './convert';
import { getApp, type MessageList, setApp } from './store';

/** How many messages one request fetches, as Zulip's web app does. */
export const PAGE = 100;

const emptyList = (): MessageList => ({ ids: [], foundOldest: false, foundNewest: false, loading: false, firstUnread: null, error: null });

export function listOf(narrow: Narrow): MessageList {
  return getApp().lists.get(narrowKey(narrow)) ?? emptyList();
}

function setList(key: string, change: Partial<MessageList>): void {
  setApp((state) => {
    const lists = new Map(state.lists);
    lists.set(key, { ...(lists.get(key) ?? emptyList()), ...change });
    return { lists };
  });
}

async function fetchPage(narrow: Narrow, anchor: string, numBefore: number, numAfter: number, includeAnchor = true) {
  const result = await graphQLClient()
    .query(MessagesQuery, { narrow: toGraphQLNarrow(narrow), anchor, numBefore, numAfter, includeAnchor }, { requestPolicy: 'network-only' })
    .toPromise();
  if (result.error || !result.data) throw new Error(result.error?.graphQLErrors[0]?.message ?? result.error?.message ?? 'The messages could not be loaded.');
  return result.data.messages;
}

function merge(key: string, page: Awaited<ReturnType<typeof fetchPage>>, ends: Partial<MessageList>): void {
  const incoming = page.messages.map(fromGraphQL);
  setApp((state) => {
    const change = addMessages(state, incoming, false);
    const lists = new Map(change.lists ?? state.lists);
    const list = lists.get(key) ?? emptyList();
    const ids = [...new Set([...list.ids, ...incoming.map((m) => m.id)])].sort((a, b) => a - b);
    lists.set(key, { ...list, ...ends, ids, loading: false, error: null });
    return { ...change, lists };
  });
}

/** The anchor each list being opened was asked at. */
const opening = new Map<string, number | null>();

/** Opens a narrow: at `near`, else at the first unread message, else at the newest. */
export async function openList(narrow: Narrow, near: number | null = null): Promise<void> {
  const key = narrowKey(narrow);
  const known = getApp().lists.get(key);
  if (known && known.ids.length > 0 && near === null) return;
  // Already on its way (the page asked for it while starting).
  if (known?.loading && known.ids.length === 0 && opening.get(key) === near) return;
  opening.set(key, near);
  setList(key, { loading: true, error: null });
  try {
    const page = await fetchPage(narrow, near === null ? 'first_unread' : String(near), PAGE / 2, PAGE / 2);
    const firstUnread = page.messages.find((m) => !m.flags.includes('read'));
    merge(key, page, { foundOldest: page.foundOldest, foundNewest: page.foundNewest, firstUnread: firstUnread ? Number(firstUnread.id) : null });
  } catch (error) {
    setList(key, { loading: false, error: (error as Error).message });
  }
}

export async function loadOlder(narrow: Narrow): Promise<void> {
  const key = narrowKey(narrow);
  const list = listOf(narrow);
  if (list.loading || list.foundOldest || list.ids.length === 0) return;
  setList(key, { loading: true });
  try {
    const page = await fetchPage(narrow, String(list.ids[0]), PAGE, 0, false);
    merge(key, page, { foundOldest: page.foundOldest });
  } catch (error) {
    setList(key, { loading: false, error: (error as Error).message });
  }
}

export async function loadNewer(narrow: Narrow): Promise<void> {
  const key = narrowKey(narrow);
  const list = listOf(narrow);
  if (list.loading || list.foundNewest || list.ids.length === 0) return;
  setList(key, { loading: true });
  try {
    const page = await fetchPage(narrow, String(list.ids[list.ids.length - 1]), 0, PAGE, false);
    merge(key, page, { foundNewest: page.foundNewest });
  } catch (error) {
    setList(key, { loading: false, error: (error as Error).message });
  }
}

/** Jumps to the newest messages: the list restarts there. */
export async function openNewest(narrow: Narrow): Promise<void> {
  const key = narrowKey(narrow);
  setList(key, { loading: true, ids: [], foundNewest: false, foundOldest: false });
  try {
    const page = await fetchPage(narrow, 'newest', PAGE, 0);
    merge(key, page, { foundOldest: page.foundOldest, foundNewest: true });
  } catch (error) {
    setList(key, { loading: false, error: (error as Error).message });
  }
}

/**
 * After a reconnection: each open list fetches what came after its newest message, until it has
 * caught up. Ids already held are merged, never repeated.
 */
export async function refreshOpenLists(): Promise<void> {
  for (const [key, list] of getApp().lists) {
    if (list.ids.length === 0) continue;
    const narrow = (JSON.parse(key) as [string, string][]).map(([operator, operand]) =>
      operator.startsWith('-') ? { operator: operator.slice(1), operand, negated: true } : { operator, operand },
    );
    let newest = list.ids[list.ids.length - 1];
    for (;;) {
      const page = await fetchPage(narrow, String(newest), 0, PAGE, false);
      merge(key, page, { foundNewest: page.foundNewest });
      if (page.foundNewest || page.messages.length === 0) break;
      newest = Number(page.messages[page.messages.length - 1].id);
    }
  }
}

/** Marks messages read on the server; the flags event updates every tab, this one included. */
export async function markRead(ids: number[]): Promise<void> {
  const unread = ids.filter((id) => getApp().unread.has(id));
  if (unread.length === 0) return;
  await graphQLClient().mutation(UpdateFlagsMutation, { messageIds: unread, op: 'add', flag: 'read' }).toPromise();
}
