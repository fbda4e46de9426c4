import { useEffect, useMemo, useRef, useState } from 'react';
import { useApp } from '../../state/store';
import type { UserRecord } from '../../state/types';
import { Avatar } from './Avatar';
import { presenceStatus, STATUS_LABEL, type PresenceStatus } from './presence-status';
import { StatusEmoji } from './StatusEmoji';
import { UserCard } from './UserCard';
import '../../styles/people.css';

const ORDER: Record<PresenceStatus, number> = { active: 0, idle: 1, offline: 2 };

/**
 * Rows drawn at first, and added each time the end of the list scrolls into view: an organization of
 * thousands keeps a short list in the page, as Zulip's buddy list does.
 */
const ROWS_PER_STEP = 100;
const byName = new Intl.Collator(undefined, { sensitivity: 'base' }).compare;

/** Zulip's user_list_style: 1 compact (names), 2 with status text, 3 with avatar and status text. */
const LIST_STYLES: Record<number, string> = { 1: 'compact', 2: 'with-status', 3: 'with-avatar' };

/**
 * The organization's people with presence dots, active first, and a filter: in the right sidebar,
 * or at the bottom of the left one (`inLeft`, Zulip's left_side_userlist in narrow windows).
 */
export function PeopleSidebar({ id, open, inLeft = false }: { id: string; open: boolean; inLeft?: boolean }) {
  const listStyle = LIST_STYLES[Number(useApp((s) => s.settings.user_list_style ?? 2))] ?? 'with-status';
  const users = useApp((s) => s.users);
  const presence = useApp((s) => s.presence);
  const statuses = useApp((s) => s.userStatus);
  const me = useApp((s) => s.me);
  const [filter, setFilter] = useState('');
  const [card, setCard] = useState<{ userId: number; anchor: HTMLElement } | null>(null);
  // Presence ages without events: look again every half minute.
  const [ticks, tick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => tick((n) => n + 1), 30_000);
    return () => clearInterval(timer);
  }, []);
  const text = filter.trim().toLowerCase();
  // biome-ignore lint/correctness/useExhaustiveDependencies: `ticks` stands for the clock presence ages by.
  const people = useMemo(() => {
    const now = Date.now() / 1000;
    return [...users.values()]
      .filter((u): u is UserRecord => u.is_active && !u.is_bot && (!text || u.full_name.toLowerCase().includes(text) || u.email.toLowerCase().includes(text)))
      .map((u) => ({ user: u, status: u.user_id === me ? ('active' as const) : presenceStatus(presence.get(u.user_id), now) }))
      .sort((a, b) => ORDER[a.status] - ORDER[b.status] || byName(a.user.full_name, b.user.full_name));
  }, [users, presence, me, text, ticks]);
  const [shown, setShown] = useState(ROWS_PER_STEP);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new filter starts from the top again.
  useEffect(() => setShown(ROWS_PER_STEP), [text]);
  const end = useRef<HTMLLIElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: observes the sentinel drawn after each step.
  useEffect(() => {
    const sentinel = end.current;
    if (!sentinel) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) setShown((n) => n + ROWS_PER_STEP);
    });
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [shown, people.length]);
  return (
    <aside id={id} className={inLeft ? 'people-in-left' : open ? 'right-sidebar open' : 'right-sidebar'} aria-label="People">
      <h2 className="people-heading">People</h2>
      <input
        type="search"
        className="people-filter"
        aria-label="Filter people"
        placeholder="Filter people"
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
      />
      <ul className={`people-list ${listStyle}`} data-list-style={listStyle}>
        {people.slice(0, shown).map(({ user, status }) => {
          const s = statuses.get(user.user_id);
          return (
            <li key={user.user_id}>
              <button
                type="button"
                className="person"
                data-user-id={user.user_id}
                aria-haspopup="dialog"
                onClick={(e) => setCard({ userId: user.user_id, anchor: e.currentTarget })}
              >
                {listStyle === 'with-avatar' ? (
                  <span className="person-avatar">
                    <Avatar url={user.avatar_url} name={user.full_name} size="small" />
                    <span className={`presence-dot ${status}`} role="img" aria-label={STATUS_LABEL[status]} />
                  </span>
                ) : (
                  <span className={`presence-dot ${status}`} role="img" aria-label={STATUS_LABEL[status]} />
                )}
                <span className="person-text">
                  <span className="person-line">
                    <span className="person-name">
                      {user.full_name}
                      {user.user_id === me ? <span className="soft"> (you)</span> : null}
                    </span>
                    {s?.emoji_name ? <StatusEmoji status={s} /> : null}
                  </span>
                  {s?.status_text && listStyle !== 'compact' ? <span className="person-status soft">{s.status_text}</span> : null}
                </span>
              </button>
            </li>
          );
        })}
        {people.length === 0 ? <li className="empty">Nobody matches.</li> : null}
        {people.length > shown ? (
          <li ref={end} className="people-more soft">
            {people.length - shown} more…
          </li>
        ) : null}
      </ul>
      {card ? (
        <UserCard
          userId={card.userId}
          onClose={() => {
            card.anchor.focus();
            setCard(null);
          }}
        />
      ) : null}
    </aside>
  );
}
