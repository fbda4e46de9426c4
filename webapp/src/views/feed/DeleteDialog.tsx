import { useState } from 'react';
import type { Msg } from '../../state/types';
import { deleteMessage } from './actions';
import { Modal } from './Modal';

/** Asks before deleting a message; the server's refusal is shown here. */
export function DeleteDialog({ message, onClose }: { message: Msg; onClose: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    const failure = await deleteMessage(message.id);
    setBusy(false);
    if (failure) setError(failure);
    else onClose();
  };
  return (
    <Modal label="Delete message" role="alertdialog" onClose={onClose}>
      <div className="modal-body">
        <h2>Delete message?</h2>
        <p>Deleting a message removes it for everyone.</p>
        {error ? (
          <p className="form-error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="modal-buttons">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="danger" disabled={busy} onClick={() => void confirm()}>
            Delete
          </button>
        </div>
      </div>
    </Modal>
  );
}
