import { useEffect, useRef, useState } from 'react';
import { UpdateUserMutation } from '../../api/operations/organization';
import type { UserRecord } from '../../state/types';
import { mutate, useAction } from './admin-api';
import { Status } from './Status';

/**
 * An administrator's edit of another user's name. Profile fields are shown as they are: the GraphQL
 * API lets users change only their own (updateProfileData).
 */
export function EditUserDialog({ user, onClose }: { user: UserRecord; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const [name, setName] = useState(user.full_name);
  const action = useAction();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  const save = async () => {
    const done = await action.run(() => mutate(UpdateUserMutation, { id: user.user_id, input: { fullName: name } }));
    if (done) onClose();
  };
  const fields = Object.entries(user.profile_data ?? {});
  return (
    <dialog ref={ref} className="modal org-dialog" aria-labelledby="edit-user-title" onClose={onClose}>
      <h2 id="edit-user-title">Edit {user.full_name}</h2>
      <form
        className="org-form"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <label htmlFor="edit-user-name">Name</label>
        <input id="edit-user-name" value={name} onChange={(e) => setName(e.target.value)} />
        {fields.length > 0 ? (
          <dl className="org-profile-data">
            {fields.map(([id, v]) => (
              <div key={id}>
                <dt>Field {id}</dt>
                <dd>{v.value}</dd>
              </div>
            ))}
          </dl>
        ) : null}
        <Status error={action.error} />
        <div className="modal-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={action.busy || name.trim() === ''}>
            Save changes
          </button>
        </div>
      </form>
    </dialog>
  );
}
