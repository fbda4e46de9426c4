import { useState } from 'react';
import { lookup } from '../../app/lookup';
import { cachedUnreadCounts } from '../../app/unread-counts';
import { narrowHash } from '../../narrow/hash';
import { useApp } from '../../state/store';
import { presenceStatus, STATUS_LABEL } from '../people/presence-status';

const SHOWN = 8;

/** Recent direct-message conversations, newest first, with their unread counts. */
export function DmList({ openKey }: { openKey: string | null }) {
  const recentDms = useApp((s) => s.recentDms);
  const users = useApp((s) => s.users);
  const me = useApp((s) => s.me);
  const counts = useApp(cachedUnreadCounts);
  const presence = useApp((s) => s.presence);
  const [all, setAll] = useState(false);
  const sorted = [...recentDms.entries()].sort((a, b) => b[1].maxId - a[1].maxId);
  const shown = all ? sorted : sorted.filter(([key], i) => i < SHOWN || key === openKey || (counts.dms.get(key) ?? 0) > 0);
  if (sorted.length === 0) return <p className="empty">No direct messages yet.</p>;
  return (
    <ul className="dm-list" aria-label="Direct messages">
      {shown.map(([key, dm]) => {
        const names = dm.userIds.map((id) =>
          id === me && dm.userIds.length === 1 ? `${users.get(id)?.full_name ?? 'You'} (you)` : (users.get(id)?.full_name ?? 'Unknown user'),
        );
        const count = counts.dms.get(key) ?? 0;
        return (
          <li key={key} className="row">
            <a href={narrowHash([{ operator: 'dm', operand: key }], lookup)} data-dm-key={key} aria-current={key === openKey ? 'page' : undefined}>
              {dm.userIds.length === 1 ? (
                <PresenceDot status={dm.userIds[0] === me ? 'active' : presenceStatus(presence.get(dm.userIds[0]))} />
              ) : (
                <span className="presence-dot none" aria-hidden="true" />
              )}
              <span className="name">{names.join(', ')}</span>
              {count > 0 ? <span className="count">{count}</span> : null}
            </a>
          </li>
        );
      })}
      {shown.length < sorted.length || all ? (
        <li>
          <button type="button" className="link-button" onClick={() => setAll(!all)} aria-expanded={all}>
            {all ? 'fewer conversations' : 'more conversations'}
          </button>
        </li>
      ) : null}
    </ul>
  );
}

function PresenceDot({ status }: { status: keyof typeof STATUS_LABEL }) {
  return <span className={`presence-dot ${status}`} role="img" aria-label={STATUS_LABEL[status]} />;
}
