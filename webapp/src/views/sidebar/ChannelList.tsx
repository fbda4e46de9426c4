import { lookup } from '../../app/lookup';
import { cachedUnreadCounts } from '../../app/unread-counts';
import { narrowHash } from '../../narrow/hash';
import { useApp } from '../../state/store';
import type { SubscriptionRecord } from '../../state/types';
import { markChannelRead } from './mark-read';
import { TopicList } from './TopicList';

/** Subscribed channels, pinned first, muted ones dimmed, with the open channel's topics under it. */
export function ChannelList({ openChannel, openTopic }: { openChannel: number | null; openTopic: string | null }) {
  const subscriptions = useApp((s) => s.subscriptions);
  const counts = useApp(cachedUnreadCounts);
  const byName = (a: SubscriptionRecord, b: SubscriptionRecord) => a.name.localeCompare(b.name);
  const all = [...subscriptions.values()];
  const pinned = all.filter((c) => c.pin_to_top).sort(byName);
  const others = all.filter((c) => !c.pin_to_top).sort(byName);
  const row = (c: SubscriptionRecord) => {
    const count = counts.channels.get(c.stream_id) ?? 0;
    const open = c.stream_id === openChannel;
    return (
      <li key={c.stream_id} className={c.is_muted ? 'channel muted' : 'channel'}>
        <div className="row">
          <a
            href={narrowHash([{ operator: 'channel', operand: String(c.stream_id) }], lookup)}
            data-channel-id={c.stream_id}
            aria-current={open && openTopic === null ? 'page' : undefined}
          >
            <span className="channel-swatch" aria-hidden="true" style={{ background: c.color }} />
            <span className="name">
              {c.invite_only ? <span aria-hidden="true">🔒 </span> : null}
              {c.name}
              {c.invite_only ? <span className="visually-hidden"> (private)</span> : null}
            </span>
            {count > 0 ? <span className="count">{count}</span> : null}
          </a>
          {count > 0 ? (
            <button
              type="button"
              className="row-action"
              aria-label={`Mark #${c.name} as read`}
              title="Mark as read"
              onClick={() => void markChannelRead(c.stream_id)}
            >
              ✓
            </button>
          ) : null}
        </div>
        {open ? <TopicList streamId={c.stream_id} openTopic={openTopic} /> : null}
      </li>
    );
  };
  return (
    <>
      {pinned.length > 0 ? (
        <ul className="channel-list pinned" aria-label="Pinned channels">
          {pinned.map(row)}
        </ul>
      ) : null}
      <ul className="channel-list" aria-label="Channels">
        {others.map(row)}
      </ul>
      {all.length === 0 ? <p className="empty">You are not subscribed to any channels.</p> : null}
    </>
  );
}
