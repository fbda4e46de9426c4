import { useSyncExternalStore } from 'react';
import { discardSend, type OutboxEntry, outboxEntries, retrySend, subscribeOutbox } from '../../state/outbox';
import { useApp } from '../../state/store';

function Destination({ entry }: { entry: OutboxEntry }) {
  const channels = useApp((s) => s.channels);
  const users = useApp((s) => s.users);
  const { to } = entry;
  if (to.kind === 'private') return <span className="outbox-to">To {to.userIds.map((id) => users.get(id)?.full_name ?? id).join(', ')}</span>;
  return (
    <span className="outbox-to">
      #{to.streamId === null ? '' : channels.get(to.streamId)?.name} › {to.topic}
    </span>
  );
}

/**
 * The messages this tab is sending, drawn at once at the bottom of the feed (the local echo) until
 * the server's copy arrives; a failed one says why, with Retry (which never sends twice) and Discard.
 */
export function Outbox() {
  const entries = useSyncExternalStore(subscribeOutbox, outboxEntries);
  const me = useApp((s) => s.users.get(s.me)?.full_name ?? '');
  if (entries.length === 0) return null;
  return (
    <ol className="outbox" aria-label="Messages being sent">
      {entries.map((e) => (
        <li key={e.localId} className={`outbox-message${e.failed ? ' failed' : ''}`} data-local-id={e.localId}>
          <div className="outbox-head">
            <span className="outbox-sender">{me}</span>
            <Destination entry={e} />
            <span className="outbox-status">{e.failed ? 'Not sent' : 'Sending…'}</span>
          </div>
          <p className="outbox-content">{e.content}</p>
          {e.failed ? (
            <div className="outbox-failure" role="alert">
              <span>{e.error}</span>
              <button type="button" onClick={() => retrySend(e.localId)}>
                Retry
              </button>
              <button type="button" onClick={() => discardSend(e.localId)}>
                Discard
              </button>
            </div>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
