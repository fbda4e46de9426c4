import type { MouseEvent } from 'react';
import { navigate } from '../../app/route';
import { cachedUnreadCounts } from '../../app/unread-counts';
import { getApp, useApp } from '../../state/store';
import type { SubscriptionRecord } from '../../state/types';
import { channelLinkHash, channelUnreadDisplay, demotesInactive, isInactive, needsTopics } from './channel-preferences';
import { loadTopics } from './load-topics';
import { markChannelRead } from './mark-read';
import { TopicList } from './TopicList';

/** A channel's link opens what the user chose; topics not yet known are asked for first. */
function onChannelClick(event: MouseEvent<HTMLAnchorElement>, streamId: number): void {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  if (!needsTopics(getApp(), streamId)) return;
  event.preventDefault();
  void loadTopics(streamId).then(() => {
    const state = getApp();
    navigate(channelLinkHash(state, streamId, cachedUnreadCounts(state)));
  });
}

/**
 * Subscribed channels, pinned first, muted ones dimmed, inactive ones (when the user demotes them)
 * in a group of their own at the bottom, with the open channel's topics under it.
 */
export function ChannelList({ openChannel, openTopic }: { openChannel: number | null; openTopic: string | null }) {
  const subscriptions = useApp((s) => s.subscriptions);
  const counts = useApp(cachedUnreadCounts);
  const settings = useApp((s) => s.settings);
  const topics = useApp((s) => s.topics);
  const userTopics = useApp((s) => s.userTopics);
  const state = { settings, topics, userTopics, subscriptions };
  const byName = (a: SubscriptionRecord, b: SubscriptionRecord) => a.name.localeCompare(b.name);
  const all = [...subscriptions.values()];
  const demote = demotesInactive(state);
  const pinned = all.filter((c) => c.pin_to_top).sort(byName);
  const others = all.filter((c) => !c.pin_to_top && !(demote && isInactive(c))).sort(byName);
  const inactive = demote ? all.filter(isInactive).sort(byName) : [];
  const row = (c: SubscriptionRecord) => {
    const { count, dot } = channelUnreadDisplay(state, c, counts);
    const open = c.stream_id === openChannel;
    return (
      <li key={c.stream_id} className={c.is_muted ? 'channel muted' : 'channel'}>
        <div className="row">
          <a
            href={channelLinkHash(state, c.stream_id, counts)}
            data-channel-id={c.stream_id}
            aria-current={open && openTopic === null ? 'page' : undefined}
            onClick={(e) => onChannelClick(e, c.stream_id)}
          >
            <span className="channel-swatch" aria-hidden="true" style={{ background: c.color }} />
            <span className="name">
              {c.invite_only ? <span aria-hidden="true">🔒 </span> : null}
              {c.name}
              {c.invite_only ? <span className="visually-hidden"> (private)</span> : null}
            </span>
            {count > 0 ? <span className="count">{count}</span> : null}
            {dot ? (
              <span className="unread-dot" title="Unread messages">
                <span className="visually-hidden">Unread messages</span>
              </span>
            ) : null}
          </a>
          {count > 0 || dot ? (
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
        {open ? <TopicList streamId={c.stream_id} openTopic={openTopic} expanded={Number(settings.web_channel_default_view) === 3} /> : null}
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
      {inactive.length > 0 ? (
        <ul className="channel-list inactive" aria-label="Inactive channels">
          {inactive.map(row)}
        </ul>
      ) : null}
      {all.length === 0 ? <p className="empty">You are not subscribed to any channels.</p> : null}
    </>
  );
}
