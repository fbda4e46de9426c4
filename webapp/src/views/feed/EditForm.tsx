import { type FormEvent, useEffect, useRef, useState } from 'react';
import { fetchRawContent, saveEdit } from './actions';

/** Edits a message in place: Enter saves (Shift+Enter for a new line), Escape cancels. */
export function EditForm({ messageId, onDone }: { messageId: number; onDone: () => void }) {
  const [text, setText] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const area = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    fetchRawContent(messageId).then(setText, (e: Error) => setError(e.message));
  }, [messageId]);
  useEffect(() => {
    if (text !== null && area.current && document.activeElement !== area.current) {
      area.current.focus();
      area.current.setSelectionRange(text.length, text.length);
    }
  }, [text]);
  const save = async (e?: FormEvent) => {
    e?.preventDefault();
    if (text === null || busy) return;
    setBusy(true);
    const failure = await saveEdit(messageId, text);
    setBusy(false);
    if (failure) setError(failure);
    else onDone();
  };
  return (
    <form className="edit-form" onSubmit={(e) => void save(e)}>
      <textarea
        ref={area}
        aria-label="Edit message"
        value={text ?? ''}
        disabled={text === null}
        rows={Math.min(12, Math.max(2, (text ?? '').split('\n').length))}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            onDone();
          } else if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            void save();
          }
        }}
      />
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="edit-buttons">
        <button type="submit" className="primary" disabled={busy || text === null}>
          Save
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
