import { useEffect } from 'react';
import { lookup } from '../../app/lookup';
import { cachedUnreadCounts, isMutedPlace } from '../../app/unread-counts';
import { narrowHash } from '../../narrow/hash';
import { topicKey, useApp } from '../../state/store';
import { loadTopics } from '../sidebar/load-topics';
import '../../styles/inbox.css';

const LIMIT = 60;

interface Row {
  key: string;
  maxId: number;
  href: string;
  where: string;
  what: string;
  color?: string;
  count: number;
}

/** Recent conversations: every topic and direct-message group, most recently active first. */
export function RecentView() {
  const subscriptions = useApp((s) => s.subscriptions);
  const topics = useApp((s) => s.topics);
  const recentDms = useApp((s) => s.recentDms);
  const users = useApp((s) => s.users);
  const messages = useApp((s) => s.messages);
  const counts = useApp(cachedUnreadCounts);
  const twentyFour = useApp((s) => s.settings.twenty_four_hour_time === true);
  const state = useApp.getState();
  // Topics are fetched per channel; this view wants them all.
  useEffect(() => {
    for (const id of subscriptions.keys()) void loadTopics(id);
  }, [subscriptions]);
  const rows: Row[] = [];
  for (const [streamId, own] of topics) {
    const sub = subscriptions.get(streamId);
    if (!sub) continue;
    for (const t of own.values()) {
      if (isMutedPlace(state, { kind: 'stream', streamId, topic: t.name })) continue;
      rows.push({
        key: `t:${streamId}:${t.name.toLowerCase()}`,
        maxId: t.maxId,
        href: narrowHash(
          [
            { operator: 'channel', operand: String(streamId) },
            { operator: 'topic', operand: t.name },
          ],
          lookup,
        ),
        where: `#${sub.name}`,
        what: t.name || '(no topic)',
        color: sub.color,
        count: counts.topics.get(topicKey(streamId, t.name)) ?? 0,
      });
    }
  }
  for (const [key, dm] of recentDms) {
    rows.push({
      key: `dm:${key}`,
      maxId: dm.maxId,
      href: narrowHash([{ operator: 'dm', operand: key }], lookup),
      where: 'Direct message',
      what: dm.userIds.map((id) => users.get(id)?.full_name ?? String(id)).join(', '),
      count: counts.dms.get(key) ?? 0,
    });
  }
  rows.sort((a, b) => b.maxId - a.maxId);
  const shown = rows.slice(0, LIMIT);
  return (
    <section className="inbox-view recent-view" aria-label="Recent conversations">
      {shown.length === 0 ? <p className="empty inbox-empty">No conversations yet.</p> : null}
      <ul className="inbox-rows recent-rows">
        {shown.map((r) => {
          const last = messages.get(r.maxId);
          return (
            <li key={r.key}>
              <a href={r.href} className="inbox-row recent-row">
                <span className="recent-where">
                  {r.color ? <span className="channel-swatch" aria-hidden="true" style={{ background: r.color }} /> : null}
                  {r.where}
                </span>
                <span className="name recent-what">{r.what}</span>
                {last ? (
                  <span className="soft recent-when">
                    {new Date(last.timestamp * 1000).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short', hour12: !twentyFour })}
                  </span>
                ) : null}
                {r.count > 0 ? <span className="count">{r.count}</span> : null}
              </a>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
