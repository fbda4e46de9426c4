import { useState } from 'react';
import {
  CreateInviteLinkMutation,
  InvitationsQuery,
  ResendInvitationMutation,
  RevokeInvitationMutation,
  RevokeInviteLinkMutation,
  SendInvitationsMutation,
} from '../../api/operations/organization';
import { useApp } from '../../state/store';
import { mutate, ROLES, roleName, useAction, useFetched } from './admin-api';
import { CopyField } from './CopyField';
import { Status } from './Status';

/** Inviting people: by email or with a link, as a role and into channels; the invitations not yet used. */
export function InvitesSection({ editable }: { editable: boolean }) {
  const invitations = useFetched(InvitationsQuery, {});
  return (
    <>
      <InviteForm onInvited={() => void invitations.reload()} />
      <h3>Pending invitations</h3>
      <Status error={invitations.error} />
      <InvitationList rows={invitations.data?.invitations ?? []} editable={editable} onChanged={() => void invitations.reload()} />
    </>
  );
}

function InviteForm({ onInvited }: { onInvited: () => void }) {
  const channels = useApp((s) => s.channels);
  const [emails, setEmails] = useState('');
  const [role, setRole] = useState(400);
  const [picked, setPicked] = useState<Set<number>>(new Set());
  const [defaults, setDefaults] = useState(true);
  const [link, setLink] = useState<string | null>(null);
  const send = useAction();
  const create = useAction();
  const options = () => ({ inviteAs: role, streamIds: [...picked], includeRealmDefaultSubscriptions: defaults });
  const list = [...channels.values()].filter((c) => !c.is_archived).sort((a, b) => a.name.localeCompare(b.name));
  const toggle = (id: number) => {
    const next = new Set(picked);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setPicked(next);
  };
  return (
    <form
      className="org-form"
      aria-label="Invite users"
      onSubmit={async (e) => {
        e.preventDefault();
        const done = await send.run(() => mutate(SendInvitationsMutation, { input: { inviteeEmails: emails, ...options() } }), 'Invitations sent');
        if (done) {
          setEmails('');
          onInvited();
        }
      }}
    >
      <label htmlFor="invite-emails">Emails (one per line or separated by commas)</label>
      <textarea id="invite-emails" rows={3} value={emails} onChange={(e) => setEmails(e.target.value)} />
      <label htmlFor="invite-role">Users join as</label>
      <select id="invite-role" value={role} onChange={(e) => setRole(Number(e.target.value))}>
        {ROLES.map((r) => (
          <option key={r.value} value={r.value}>
            {r.label}
          </option>
        ))}
      </select>
      <fieldset className="org-checklist">
        <legend>Channels they join</legend>
        <label>
          <input type="checkbox" checked={defaults} onChange={(e) => setDefaults(e.target.checked)} /> The default channels
        </label>
        {list.map((c) => (
          <label key={c.stream_id}>
            <input type="checkbox" checked={picked.has(c.stream_id)} onChange={() => toggle(c.stream_id)} /> #{c.name}
          </label>
        ))}
      </fieldset>
      <div className="org-row">
        <button type="submit" className="primary" disabled={send.busy || emails.trim() === ''}>
          Invite
        </button>
        <button
          type="button"
          disabled={create.busy}
          onClick={async () => {
            const data = await create.run(() => mutate(CreateInviteLinkMutation, { input: options() }), 'Link created');
            if (data) {
              setLink(data.createInviteLink);
              onInvited();
            }
          }}
        >
          Create invitation link
        </button>
      </div>
      <Status error={send.error} done={send.done} />
      <Status error={create.error} />
      {link ? <CopyField label="Invitation link" value={link} /> : null}
    </form>
  );
}

type Invitation = {
  id: string;
  email: string | null;
  expiryDate: number | null;
  invitedAs: number;
  isMultiuse: boolean;
  linkUrl: string | null;
  invitedByUserId: number;
};

function InvitationList({ rows, editable, onChanged }: { rows: Invitation[]; editable: boolean; onChanged: () => void }) {
  if (rows.length === 0) return <p className="empty">No pending invitations.</p>;
  return (
    <table className="org-table">
      <thead>
        <tr>
          <th scope="col">Invitee</th>
          <th scope="col">Invited as</th>
          <th scope="col">Expires</th>
          <th scope="col">Actions</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <InvitationRow key={r.id} row={r} editable={editable} onChanged={onChanged} />
        ))}
      </tbody>
    </table>
  );
}

function InvitationRow({ row, editable, onChanged }: { row: Invitation; editable: boolean; onChanged: () => void }) {
  const inviter = useApp((s) => s.users.get(row.invitedByUserId)?.full_name);
  const mine = useApp((s) => s.me === row.invitedByUserId);
  const action = useAction();
  const id = Number(row.id);
  const who = row.isMultiuse ? 'Invitation link' : (row.email ?? '');
  return (
    <tr data-invitation-id={row.id}>
      <td className="org-email">
        {who}
        {inviter ? <span className="soft"> (by {inviter})</span> : null}
      </td>
      <td>{roleName(row.invitedAs)}</td>
      <td>{row.expiryDate ? new Date(row.expiryDate * 1000).toLocaleDateString() : 'Never'}</td>
      <td className="org-actions">
        {editable || mine ? (
          <>
            {row.isMultiuse && row.linkUrl ? (
              <button
                type="button"
                aria-label="Copy this invitation link"
                onClick={() =>
                  void navigator.clipboard.writeText(row.linkUrl ?? '').then(
                    () => action.setDone('Copied'),
                    () => action.setError(`Copying was refused; the link is ${row.linkUrl}`),
                  )
                }
              >
                Copy link
              </button>
            ) : null}
            {row.isMultiuse ? null : (
              <button
                type="button"
                aria-label={`Resend the invitation to ${who}`}
                disabled={action.busy}
                onClick={() => void action.run(() => mutate(ResendInvitationMutation, { id }), 'Sent again')}
              >
                Resend
              </button>
            )}
            <button
              type="button"
              className="danger"
              aria-label={`Revoke the invitation: ${who}`}
              disabled={action.busy}
              onClick={async () => {
                const done = await action.run<unknown>(
                  () => (row.isMultiuse ? mutate(RevokeInviteLinkMutation, { id }) : mutate(RevokeInvitationMutation, { id })),
                  'Revoked',
                );
                if (done) onChanged();
              }}
            >
              Revoke
            </button>
          </>
        ) : null}
        <Status error={action.error} done={action.done} />
      </td>
    </tr>
  );
}
