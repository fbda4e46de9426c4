import { defaultRangeExtractor, type Range, useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { type Narrow, narrowKey } from '../../narrow/narrow';
import { loadNewer, loadOlder, openList, openNewest } from '../../state/message-lists';
import { isConversationNarrow, marksReadOnScroll, noteSeen, pageHasAttention, readingPaused } from '../../state/read-tracking';
import { useApp } from '../../state/store';
import { rowHeaders } from './grouping';
import { MessageRow } from './MessageRow';
import { RecipientBar } from './RecipientBar';

/** Rows this close to either end of what is loaded fetch the next page. */
const EDGE = 8;
const TOP_PAD = 40;
/** At most this many unmeasured rows above the view are drawn ahead (a page of the list). */
const PREMEASURE = 100;

/**
 * A narrow's messages in a virtualized list: only the rows near the viewport are in the page. It opens
 * at `near`, else at the first unread message, else at the newest; stays at the bottom as messages
 * arrive when it is there; keeps the reader's place when older messages come in above.
 */
export function MessageFeed({ narrow, near }: { narrow: Narrow; near: number | null }) {
  const key = narrowKey(narrow);
  const list = useApp((s) => s.lists.get(key));
  const messages = useApp((s) => s.messages);
  const me = useApp((s) => s.me);
  const policy = useApp((s) => s.settings.web_mark_read_on_scroll_policy);
  const ids = (list?.ids ?? []).filter((id) => messages.has(id));
  const scroller = useRef<HTMLDivElement>(null);
  const placed = useRef(false);
  const sawLoading = useRef(false);
  const wantBottom = useRef(false);
  // After the view moves itself (opening, jumping), it settles before pages are fetched at its ends.
  const quietUntil = useRef(0);
  const settle = () => {
    quietUntil.current = performance.now() + 400;
    setTimeout(() => setTick((t) => t + 1), 450);
  };
  const [, setTick] = useState(0);
  // Only messages that arrive live are followed to the bottom, not a page fetched while reading
  // towards the end of what is loaded (that one would skip the reader past it).
  const hadNewest = useRef(false);
  const followLive = hadNewest.current;
  useEffect(() => {
    hadNewest.current = list?.foundNewest === true;
  });

  // Rows loaded above the view are drawn once, to be measured, before the reader scrolls up to them:
  // their real heights are known by then, so nothing shifts under the reader as they come into view.
  const sizes = useRef<Map<unknown, number> | null>(null);
  const idsRef = useRef(ids);
  idsRef.current = ids;
  const [pass, setPass] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new pass lets the rows measured meanwhile go.
  const rangeExtractor = useCallback(
    (range: Range) => {
      const shown = defaultRangeExtractor(range);
      const known = sizes.current;
      if (!known || !placed.current || shown.length === 0) return shown;
      const above: number[] = [];
      for (let i = Math.max(0, shown[0] - PREMEASURE); i < shown[0]; i++) if (!known.has(idsRef.current[i])) above.push(i);
      return above.length > 0 ? [...above, ...shown] : shown;
    },
    [pass],
  );

  const virtualizer = useVirtualizer({
    count: ids.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 64,
    getItemKey: (index) => ids[index],
    overscan: 8,
    paddingStart: TOP_PAD,
    paddingEnd: 16,
    anchorTo: 'end',
    followOnAppend: followLive,
    rangeExtractor,
  });
  sizes.current = virtualizer.itemSizeCache;
  const items = virtualizer.getVirtualItems();

  // The first time messages are there: go to where the reader should start.
  useLayoutEffect(() => {
    if (list?.loading) sawLoading.current = true;
    if (placed.current || ids.length === 0 || list?.loading) return;
    // A link to a message not yet loaded waits for the page around it.
    if (near !== null && !ids.includes(near) && !sawLoading.current) return;
    placed.current = true;
    settle();
    const target = near ?? list?.firstUnread ?? null;
    const index = target === null ? -1 : ids.indexOf(target);
    if (index >= 0) virtualizer.scrollToIndex(index, { align: near !== null ? 'center' : 'start' });
    else virtualizer.scrollToIndex(ids.length - 1, { align: 'end' });
  });

  // Rows drawn ahead and measured since leave the page again.
  useEffect(() => {
    const start = virtualizer.range?.startIndex ?? 0;
    if (!items.some((item) => item.index < start - 8 && virtualizer.itemSizeCache.has(item.key))) return;
    const timer = setTimeout(() => setPass((p) => p + 1), 250);
    return () => clearTimeout(timer);
  });

  // After "Jump to newest" has reloaded the list: go to its end.
  useLayoutEffect(() => {
    if (!wantBottom.current || list?.loading || ids.length === 0) return;
    wantBottom.current = false;
    settle();
    virtualizer.scrollToIndex(ids.length - 1, { align: 'end' });
  });

  // A list emptied under the view (messages moved in or out of it) is asked for again.
  useEffect(() => {
    if (!list || list.ids.length > 0 || list.loading || list.error || list.foundNewest || list.foundOldest) return;
    placed.current = false;
    sawLoading.current = false;
    void openList(narrow, near);
  });

  // Near an end of what is loaded: fetch the next page.
  // (The range in view, not the rows drawn: those include rows drawn ahead to be measured.)
  const first = virtualizer.range?.startIndex;
  const last = virtualizer.range?.endIndex;
  useEffect(() => {
    if (!placed.current || !list || list.loading || list.error || performance.now() < quietUntil.current) return;
    if (first !== undefined && first < EDGE && !list.foundOldest) void loadOlder(narrow);
    else if (last !== undefined && last > ids.length - EDGE && !list.foundNewest) void loadNewer(narrow);
  });

  // Reading: the messages whose bottom is in view are seen, if the window has the user's attention.
  const noteVisible = () => {
    const el = scroller.current;
    if (!el || !placed.current || !pageHasAttention() || readingPaused(key) || !marksReadOnScroll(policy, narrow)) return;
    const top = el.scrollTop;
    const bottom = top + el.clientHeight;
    const seen: number[] = [];
    for (const item of virtualizer.getVirtualItems()) if (item.end > top && item.end <= bottom + 2) seen.push(ids[item.index]);
    noteSeen(seen);
  };
  const latest = useRef(noteVisible);
  latest.current = noteVisible;
  useEffect(noteVisible);
  useEffect(() => {
    const again = () => {
      latest.current();
      setTick((t) => t + 1);
    };
    const look = () => latest.current();
    const el = scroller.current;
    window.addEventListener('focus', again);
    document.addEventListener('visibilitychange', again);
    el?.addEventListener('scroll', look, { passive: true });
    // Rows also come into view without scrolling (images loading, messages arriving, edits).
    const timer = setInterval(look, 1000);
    return () => {
      window.removeEventListener('focus', again);
      document.removeEventListener('visibilitychange', again);
      el?.removeEventListener('scroll', look);
      clearInterval(timer);
    };
  }, []);

  // The conversation of the top row stays named above the list once its own bar has scrolled away.
  const offset = scroller.current?.scrollTop ?? 0;
  const topItem = items.find((item) => item.end > offset + 1);
  const topMessage = topItem ? messages.get(ids[topItem.index]) : undefined;
  const ownBarShown =
    topItem !== undefined &&
    topMessage !== undefined &&
    topItem.start >= offset - 2 &&
    rowHeaders(topItem.index > 0 ? messages.get(ids[topItem.index - 1]) : undefined, topMessage, me).recipient;
  const floating = offset > TOP_PAD && !ownBarShown ? topMessage : undefined;

  const atBottom = virtualizer.getDistanceFromEnd() < 120;
  const showJump = ids.length > 0 && (!atBottom || (list !== undefined && !list.foundNewest));
  const jump = () => {
    if (list?.foundNewest) virtualizer.scrollToIndex(ids.length - 1, { align: 'end' });
    else {
      wantBottom.current = true;
      void openNewest(narrow);
    }
  };

  // A failed page is asked again from the end it was for.
  const retry = () => {
    if (ids.length === 0) void openList(narrow, near);
    else if (first !== undefined && first < EDGE && !list?.foundOldest) void loadOlder(narrow);
    else void loadNewer(narrow);
  };

  return (
    <div className="feed">
      {floating ? (
        <div className="floating-recipient">
          <RecipientBar message={floating} />
        </div>
      ) : null}
      <div ref={scroller} className="feed-scroll" tabIndex={-1}>
        <div className="feed-inner" style={{ height: virtualizer.getTotalSize() }}>
          <div className="feed-top">
            {list?.foundOldest && ids.length > 0
              ? isConversationNarrow(narrow)
                ? 'The beginning of this conversation.'
                : 'No older messages.'
              : list?.loading
                ? 'Loading…'
                : null}
          </div>
          {items.map((item) => {
            const m = messages.get(ids[item.index])!;
            const previous = item.index > 0 ? messages.get(ids[item.index - 1]) : undefined;
            return (
              <div
                key={item.key}
                data-index={item.index}
                ref={virtualizer.measureElement}
                className="feed-item"
                style={{ transform: `translateY(${item.start}px)` }}
              >
                <MessageRow message={m} headers={rowHeaders(previous, m, me)} listKey={key} target={m.id === near} />
              </div>
            );
          })}
        </div>
        {list && !list.loading && ids.length === 0 ? <p className="feed-empty">{list.error ? null : 'No messages here yet.'}</p> : null}
      </div>
      {list?.error ? (
        <div className="feed-error" role="alert">
          {list.error}{' '}
          <button type="button" onClick={retry}>
            Try again
          </button>
        </div>
      ) : null}
      {showJump ? (
        <button type="button" className="jump-newest" onClick={jump}>
          Jump to newest ↓
        </button>
      ) : null}
    </div>
  );
}
