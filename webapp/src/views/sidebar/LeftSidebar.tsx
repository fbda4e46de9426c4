import { type ReactNode, useState } from 'react';
import { useRoute } from '../../app/route';
import { cachedUnreadCounts } from '../../app/unread-counts';
import { canonicalOperator, dmKey } from '../../narrow/narrow';
import { useApp } from '../../state/store';
import { ConfirmDialog } from '../layout/ConfirmDialog';
import { ChannelList } from './ChannelList';
import { DmList } from './DmList';
import { markAllRead } from './mark-read';
import { ViewsList } from './ViewsList';
import '../../styles/sidebar.css';

/** Views, channels with their topics, and direct messages, each with unread counts. */
export function LeftSidebar({ id, open, children }: { id: string; open: boolean; children?: ReactNode }) {
  const route = useRoute();
  const me = useApp((s) => s.me);
  const total = useApp((s) => cachedUnreadCounts(s).total);
  const [confirming, setConfirming] = useState(false);
  const narrow = route.view === 'narrow' ? route.narrow : [];
  const term = (op: string) => narrow.find((t) => canonicalOperator(t.operator) === op && !t.negated)?.operand ?? null;
  const channel = term('channel');
  const openChannel = channel && /^\d+$/.test(channel) ? Number(channel) : null;
  const dm = term('dm');
  const openDm = dm && /^[\d,]+$/.test(dm) ? dmKey(dm.split(',').map(Number), me) : null;
  return (
    <nav id={id} className={open ? 'left-sidebar open' : 'left-sidebar'} aria-label="Conversations">
      <ViewsList />
      <div className="sidebar-heading">
        <h2>Channels</h2>
        <a href="#channels" className="heading-link" aria-label="Browse channels" title="Browse channels">
          Browse
        </a>
      </div>
      <ChannelList openChannel={openChannel} openTopic={openChannel === null ? null : term('topic')} />
      <div className="sidebar-heading">
        <h2>Direct messages</h2>
      </div>
      <DmList openKey={openDm} />
      {children}
      {total > 0 ? (
        <button type="button" className="mark-all" onClick={() => setConfirming(true)}>
          Mark all messages as read
        </button>
      ) : null}
      {confirming ? (
        <ConfirmDialog
          title="Mark all messages as read?"
          message={`This marks ${total} unread ${total === 1 ? 'message' : 'messages'} as read, in every channel and conversation.`}
          confirmLabel="Mark as read"
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            void markAllRead();
          }}
        />
      ) : null}
    </nav>
  );
}
