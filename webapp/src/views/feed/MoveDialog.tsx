import { type FormEvent, useId, useState } from 'react';
import { useApp } from '../../state/store';
import type { Msg } from '../../state/types';
import { moveMessages } from './actions';
import { Modal } from './Modal';

/** Moves a message, and as chosen the others of its topic, to another topic or channel. */
export function MoveDialog({ message, onClose }: { message: Msg; onClose: () => void }) {
  const subscriptions = useApp((s) => s.subscriptions);
  const [topic, setTopic] = useState(message.topic);
  const [streamId, setStreamId] = useState(String(message.streamId ?? ''));
  const [mode, setMode] = useState('change_all');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();
  const channels = [...subscriptions.values()].sort((a, b) => a.name.localeCompare(b.name));
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const target = Number(streamId);
    const failure = await moveMessages(message.id, { topic, streamId: target === message.streamId ? null : target, propagateMode: mode });
    setBusy(false);
    if (failure) setError(failure);
    else onClose();
  };
  return (
    <Modal label="Move messages" onClose={onClose}>
      <form className="modal-body" onSubmit={(e) => void submit(e)}>
        <h2>Move messages</h2>
        <label htmlFor={`${id}-channel`}>Channel</label>
        <select id={`${id}-channel`} value={streamId} onChange={(e) => setStreamId(e.target.value)}>
          {channels.map((c) => (
            <option key={c.stream_id} value={c.stream_id}>
              #{c.name}
            </option>
          ))}
        </select>
        <label htmlFor={`${id}-topic`}>Topic</label>
        <input id={`${id}-topic`} value={topic} onChange={(e) => setTopic(e.target.value)} />
        <label htmlFor={`${id}-mode`}>Which messages</label>
        <select id={`${id}-mode`} value={mode} onChange={(e) => setMode(e.target.value)}>
          <option value="change_one">Only this message</option>
          <option value="change_later">This and all later messages in the topic</option>
          <option value="change_all">All messages in the topic</option>
        </select>
        {error ? (
          <p className="form-error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="modal-buttons">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={busy}>
            Move
          </button>
        </div>
      </form>
    </Modal>
  );
}
