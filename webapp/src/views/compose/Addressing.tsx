import { useEffect } from 'react';
import type { Addressee } from '../../state/compose-state';
import { useApp } from '../../state/store';
import { loadTopics } from '../sidebar/load-topics';
import { RecipientPicker } from './RecipientPicker';

/** Where the message goes: a subscribed channel and a topic (with the channel's topics suggested), or people. */
export function Addressing({ to, onChange }: { to: Addressee; onChange: (to: Addressee) => void }) {
  const subscriptions = useApp((s) => s.subscriptions);
  const streamId = to.kind === 'stream' ? to.streamId : null;
  const topics = useApp((s) => (streamId === null ? undefined : s.topics.get(streamId)));
  useEffect(() => {
    if (streamId !== null) void loadTopics(streamId);
  }, [streamId]);
  if (to.kind === 'private') return <RecipientPicker userIds={to.userIds} onChange={(userIds) => onChange({ kind: 'private', userIds })} />;
  const channels = [...subscriptions.values()].filter((c) => !c.is_archived).sort((a, b) => a.name.localeCompare(b.name));
  const names = [...(topics?.values() ?? [])].sort((a, b) => b.maxId - a.maxId).map((t) => t.name);
  return (
    <div className="compose-addressing">
      <label htmlFor="compose-channel" className="visually-hidden">
        Channel
      </label>
      <select
        id="compose-channel"
        value={streamId ?? ''}
        onChange={(e) => onChange({ kind: 'stream', streamId: e.target.value ? Number(e.target.value) : null, topic: to.topic })}
      >
        <option value="" disabled>
          Choose a channel
        </option>
        {channels.map((c) => (
          <option key={c.stream_id} value={c.stream_id}>
            {c.name}
          </option>
        ))}
      </select>
      <span className="compose-separator" aria-hidden="true">
        ›
      </span>
      <label htmlFor="compose-topic" className="visually-hidden">
        Topic
      </label>
      <input
        id="compose-topic"
        type="text"
        placeholder="Topic"
        maxLength={60}
        autoComplete="off"
        list="compose-topic-suggestions"
        value={to.topic}
        onChange={(e) => onChange({ kind: 'stream', streamId, topic: e.target.value })}
      />
      <datalist id="compose-topic-suggestions">
        {names.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
    </div>
  );
}
