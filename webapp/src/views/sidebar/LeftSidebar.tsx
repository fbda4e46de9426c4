import { lookup } from '../../app/lookup';
import { narrowHash } from '../../narrow/hash';
import { useApp } from '../../state/store';

/** Subscribed channels with their unread counts. */
export function LeftSidebar() {
  const subscriptions = useApp((s) => s.subscriptions);
  const unread = useApp((s) => s.unread);
  const counts = new Map<number, number>();
  for (const place of unread.values()) if (place.kind === 'stream') counts.set(place.streamId, (counts.get(place.streamId) ?? 0) + 1);
  const channels = [...subscriptions.values()].sort((a, b) => a.name.localeCompare(b.name));
  return (
    <nav className="left-sidebar" aria-label="Channels">
      <h2>Channels</h2>
      <ul>
        {channels.map((c) => (
          <li key={c.stream_id}>
            <a href={narrowHash([{ operator: 'channel', operand: String(c.stream_id) }], lookup)} data-channel-id={c.stream_id}>
              <span className="name">#{c.name}</span>
              {counts.get(c.stream_id) ? <span className="count">{counts.get(c.stream_id)}</span> : null}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
