import { lookup } from '../../app/lookup';
import { isMutedPlace } from '../../app/unread-counts';
import { narrowHash } from '../../narrow/hash';
import { type AppState, useApp } from '../../state/store';
import '../../styles/inbox.css';

interface Row {
  key: string;
  label: string;
  href: string;
  count: number;
  newest: number;
  dmKey?: string;
  topic?: string;
}
interface Group {
  key: string;
  label: string;
  href?: string;
  color?: string;
  streamId?: number;
  rows: Row[];
  newest: number;
}

/** Unread conversations grouped by channel, plus direct messages, newest first. */
function inboxGroups(state: AppState): Group[] {
  const dms: Group = { key: 'dm', label: 'Direct messages', rows: [], newest: 0 };
  const channels = new Map<number, Group>();
  const rows = new Map<string, Row>();
  for (const [id, place] of state.unread) {
    if (isMutedPlace(state, place)) continue;
    let group: Group;
    let rowKey: string;
    if (place.kind === 'dm') {
      group = dms;
      rowKey = `dm:${place.key}`;
      if (!rows.has(rowKey)) {
        const names = place.key.split(',').map((u) => state.users.get(Number(u))?.full_name ?? u);
        const row = {
          key: rowKey,
          label: names.join(', '),
          href: narrowHash([{ operator: 'dm', operand: place.key }], lookup),
          count: 0,
          newest: 0,
          dmKey: place.key,
        };
        rows.set(rowKey, row);
        group.rows.push(row);
      }
    } else {
      let g = channels.get(place.streamId);
      if (!g) {
        const sub = state.subscriptions.get(place.streamId);
        g = {
          key: `c:${place.streamId}`,
          label: `#${sub?.name ?? place.streamId}`,
          href: narrowHash([{ operator: 'channel', operand: String(place.streamId) }], lookup),
          color: sub?.color,
          streamId: place.streamId,
          rows: [],
          newest: 0,
        };
        channels.set(place.streamId, g);
      }
      group = g;
      rowKey = `t:${place.streamId}:${place.topic.toLowerCase()}`;
      if (!rows.has(rowKey)) {
        const href = narrowHash(
          [
            { operator: 'channel', operand: String(place.streamId) },
            { operator: 'topic', operand: place.topic },
          ],
          lookup,
        );
        const row = { key: rowKey, label: place.topic || '(no topic)', href, count: 0, newest: 0, topic: place.topic };
        rows.set(rowKey, row);
        group.rows.push(row);
      }
    }
    const row = rows.get(rowKey)!;
    row.count++;
    row.newest = Math.max(row.newest, id);
    group.newest = Math.max(group.newest, id);
  }
  const groups = [...channels.values()].sort((a, b) => b.newest - a.newest);
  if (dms.rows.length > 0) groups.unshift(dms);
  for (const g of groups) g.rows.sort((a, b) => b.newest - a.newest);
  return groups;
}

export function InboxView() {
  // The groups depend on these collections; reading them keeps the view current.
  const state = useApp((s) => s);
  const groups = inboxGroups(state);
  return (
    <section className="inbox-view" aria-labelledby="inbox-title">
      <h2 id="inbox-title" className="visually-hidden">
        Inbox
      </h2>
      {groups.length === 0 ? <p className="empty inbox-empty">There are no unread messages in your inbox.</p> : null}
      {groups.map((g) => {
        const total = g.rows.reduce((n, r) => n + r.count, 0);
        return (
          <section key={g.key} className="inbox-group" aria-label={g.label}>
            <h3 className="inbox-group-header">
              {g.color ? <span className="channel-swatch" aria-hidden="true" style={{ background: g.color }} /> : null}
              {g.href ? <a href={g.href}>{g.label}</a> : <span>{g.label}</span>}
              <span className="count">{total}</span>
            </h3>
            <ul className="inbox-rows">
              {g.rows.map((r) => (
                <li key={r.key}>
                  <a href={r.href} className="inbox-row" data-inbox-key={r.key}>
                    <span className="name">{r.label}</span>
                    <span className="count">{r.count}</span>
                  </a>
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </section>
  );
}
