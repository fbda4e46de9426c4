import { useEffect, useState } from 'react';
import { lookup } from '../../app/lookup';
import { cachedUnreadCounts, MUTED } from '../../app/unread-counts';
import { narrowHash } from '../../narrow/hash';
import { topicKey, useApp } from '../../state/store';
import { loadTopics } from './load-topics';
import { markTopicRead } from './mark-read';

const SHOWN = 8;

/**
 * The open channel's topics, newest first: a few, those with unread messages, or all on request
 * (at first when `expanded`: the user's channel links open the list of topics).
 */
export function TopicList({ streamId, openTopic, expanded = false }: { streamId: number; openTopic: string | null; expanded?: boolean }) {
  const topics = useApp((s) => s.topics.get(streamId));
  const counts = useApp(cachedUnreadCounts);
  const userTopics = useApp((s) => s.userTopics);
  const [all, setAll] = useState(expanded);
  useEffect(() => {
    void loadTopics(streamId);
    setAll(expanded);
  }, [streamId, expanded]);
  const sorted = [...(topics?.values() ?? [])].sort((a, b) => b.maxId - a.maxId);
  const open = openTopic?.toLowerCase();
  const shown = all ? sorted : sorted.filter((t, i) => i < SHOWN || t.name.toLowerCase() === open || (counts.topics.get(topicKey(streamId, t.name)) ?? 0) > 0);
  if (sorted.length === 0) return null;
  return (
    <ul className="topic-list" aria-label="Topics">
      {shown.map((t) => {
        const count = counts.topics.get(topicKey(streamId, t.name)) ?? 0;
        const muted = userTopics.get(topicKey(streamId, t.name)) === MUTED;
        const hash = narrowHash(
          [
            { operator: 'channel', operand: String(streamId) },
            { operator: 'topic', operand: t.name },
          ],
          lookup,
        );
        return (
          <li key={t.name} className={muted ? 'row muted' : 'row'}>
            <a href={hash} data-topic={t.name} aria-current={t.name.toLowerCase() === open ? 'page' : undefined}>
              <span className="name">{t.name || '(no topic)'}</span>
              {count > 0 ? <span className="count">{count}</span> : null}
            </a>
            {count > 0 ? (
              <button
                type="button"
                className="row-action"
                aria-label={`Mark topic ${t.name} as read`}
                title="Mark as read"
                onClick={() => void markTopicRead(streamId, t.name)}
              >
                ✓
              </button>
            ) : null}
          </li>
        );
      })}
      {shown.length < sorted.length || all ? (
        <li>
          <button type="button" className="link-button more-topics" onClick={() => setAll(!all)} aria-expanded={all}>
            {all ? 'fewer topics' : 'more topics'}
          </button>
        </li>
      ) : null}
    </ul>
  );
}
