import { lookup } from '../../app/lookup';
import { navigate } from '../../app/route';
import { narrowHash } from '../../narrow/hash';
import type { Narrow } from '../../narrow/narrow';
import { type Addressee, focusCompose, setCompose } from '../../state/compose-state';
import { useApp } from '../../state/store';
import type { DraftRecord } from '../../state/types';
import '../../styles/compose.css';
import { deleteDraft } from './drafts';

function addresseeOf(d: DraftRecord): Addressee {
  return d.type === 'private' ? { kind: 'private', userIds: d.to } : { kind: 'stream', streamId: d.to[0] ?? null, topic: d.topic };
}

function narrowOf(to: Addressee): Narrow {
  if (to.kind === 'private') return [{ operator: 'dm', operand: to.userIds.join(',') }];
  if (to.streamId === null) return [];
  const channel = { operator: 'channel', operand: String(to.streamId) };
  return to.topic ? [channel, { operator: 'topic', operand: to.topic }] : [channel];
}

/** Opens the draft's conversation with the draft in the compose box. */
function restore(d: DraftRecord): void {
  const to = addresseeOf(d);
  setCompose({ to, content: d.content, draftId: Number(d.id), open: true });
  navigate(narrowHash(narrowOf(to), lookup));
  focusCompose('content');
}

function Destination({ draft }: { draft: DraftRecord }) {
  const channels = useApp((s) => s.channels);
  const users = useApp((s) => s.users);
  if (draft.type === 'private') {
    const names = draft.to.map((id) => users.get(id)?.full_name ?? `User ${id}`);
    return <span className="draft-to">To {names.join(', ') || 'nobody yet'}</span>;
  }
  const channel = draft.to[0] === undefined ? undefined : channels.get(draft.to[0]);
  return (
    <span className="draft-to">
      #{channel?.name ?? 'unknown channel'}
      {draft.topic ? ` › ${draft.topic}` : ''}
    </span>
  );
}

/** The user's drafts (kept on the server, live across tabs), newest first, to restore or delete. */
export function DraftsView() {
  const drafts = useApp((s) => s.drafts);
  const twentyFour = useApp((s) => s.settings.twenty_four_hour_time === true);
  const list = [...drafts.values()].sort((a, b) => b.timestamp - a.timestamp);
  return (
    <section className="drafts-view" aria-labelledby="drafts-title">
      <h1 id="drafts-title">Drafts</h1>
      {list.length === 0 ? <p className="muted">No drafts. Messages you start writing are kept here until you send them.</p> : null}
      <ul className="draft-list">
        {list.map((d) => (
          <li key={d.id} className="draft" data-draft-id={d.id}>
            <div className="draft-head">
              <Destination draft={d} />
              <time dateTime={new Date(d.timestamp * 1000).toISOString()}>
                {new Date(d.timestamp * 1000).toLocaleString([], { dateStyle: 'medium', timeStyle: 'short', hour12: !twentyFour })}
              </time>
            </div>
            <p className="draft-content">{d.content}</p>
            <div className="draft-actions">
              <button type="button" onClick={() => restore(d)}>
                Restore
              </button>
              <button type="button" onClick={() => void deleteDraft(Number(d.id))}>
                Delete
              </button>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
