import { useState } from 'react';
import { DeactivateUserMutation, ReactivateUserMutation, UpdateUserMutation } from '../../api/operations/organization';
import { useApp } from '../../state/store';
import type { UserRecord } from '../../state/types';
import { ConfirmDialog } from '../layout/ConfirmDialog';
import { mutate, ROLES, roleName, useAction } from './admin-api';
import { EditUserDialog } from './EditUserDialog';
import { Status } from './Status';

/** Users of the organization: active ones or deactivated ones, searchable and filtered by role. */
export function UsersSection({ which, editable }: { which: 'active' | 'deactivated'; editable: boolean }) {
  const users = useApp((s) => s.users);
  const [query, setQuery] = useState('');
  const [role, setRole] = useState(0);
  const text = query.trim().toLowerCase();
  const list = [...users.values()]
    // Deactivated bots are listed with deactivated users, where they are reactivated, as in Zulip.
    .filter((u) => u.is_active === (which === 'active') && (which === 'deactivated' || !u.is_bot))
    .filter((u) => role === 0 || u.role === role)
    .filter((u) => !text || u.full_name.toLowerCase().includes(text) || (u.delivery_email ?? u.email).toLowerCase().includes(text))
    .sort((a, b) => a.full_name.localeCompare(b.full_name));
  return (
    <>
      <div className="org-row org-filters">
        <input type="search" aria-label="Filter users" placeholder="Filter users" value={query} onChange={(e) => setQuery(e.target.value)} />
        <select aria-label="Filter by role" value={role} onChange={(e) => setRole(Number(e.target.value))}>
          <option value={0}>All roles</option>
          {ROLES.map((r) => (
            <option key={r.value} value={r.value}>
              {r.label}
            </option>
          ))}
        </select>
      </div>
      <table className="org-table">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Role</th>
            {editable ? <th scope="col">Actions</th> : null}
          </tr>
        </thead>
        <tbody>
          {list.map((u) => (
            <UserRow key={u.user_id} user={u} editable={editable} />
          ))}
        </tbody>
      </table>
      {list.length === 0 ? <p className="empty">No users match.</p> : null}
    </>
  );
}

function UserRow({ user, editable }: { user: UserRecord; editable: boolean }) {
  const me = useApp((s) => s.me);
  const action = useAction();
  const [confirming, setConfirming] = useState(false);
  const [editing, setEditing] = useState(false);
  const changeRole = (role: number) => void action.run(() => mutate(UpdateUserMutation, { id: user.user_id, input: { role } }));
  const toggleActive = () => {
    setConfirming(false);
    void action.run<unknown>(
      () => (user.is_active ? mutate(DeactivateUserMutation, { id: user.user_id }) : mutate(ReactivateUserMutation, { id: user.user_id })),
      user.is_active ? 'Deactivated' : 'Reactivated',
    );
  };
  const verb = user.is_active ? 'Deactivate' : 'Reactivate';
  return (
    <tr data-user-id={user.user_id}>
      <td>
        {user.full_name}
        {user.user_id === me ? <span className="soft"> (you)</span> : null}
        {user.is_bot ? <span className="soft"> (bot)</span> : null}
        <br />
        <span className="soft org-email">{user.delivery_email ?? user.email}</span>
      </td>
      <td>
        {editable && user.is_active ? (
          <select aria-label={`Role of ${user.full_name}`} value={user.role} disabled={action.busy} onChange={(e) => changeRole(Number(e.target.value))}>
            {ROLES.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}
              </option>
            ))}
          </select>
        ) : (
          roleName(user.role)
        )}
        <Status error={action.error} done={action.done} />
      </td>
      {editable ? (
        <td className="org-actions">
          {user.is_active ? (
            <button type="button" aria-label={`Edit ${user.full_name}`} onClick={() => setEditing(true)}>
              Edit
            </button>
          ) : null}
          <button
            type="button"
            aria-label={`${verb} ${user.full_name}`}
            className={user.is_active ? 'danger' : ''}
            disabled={action.busy}
            onClick={() => setConfirming(true)}
          >
            {verb}
          </button>
          {confirming ? (
            <ConfirmDialog
              title={`${verb} ${user.full_name}?`}
              message={
                user.is_active
                  ? `${user.full_name} will be signed out at once and will not be able to sign in until reactivated.`
                  : `${user.full_name} will be able to sign in again.`
              }
              confirmLabel={verb}
              onConfirm={toggleActive}
              onCancel={() => setConfirming(false)}
            />
          ) : null}
          {editing ? <EditUserDialog user={user} onClose={() => setEditing(false)} /> : null}
        </td>
      ) : null}
    </tr>
  );
}
