import { useEffect, useRef } from 'react';
import { lookup } from '../../app/lookup';
import { narrowHash } from '../../narrow/hash';
import { useApp } from '../../state/store';
import { Avatar } from './Avatar';
import { type ProfileField, ProfileValue } from './profile-value';
import { StatusEmoji } from './StatusEmoji';
import { presenceStatus, STATUS_LABEL } from './presence-status';

/** One empty list, so that the store's selector returns the same value each time. */
const NO_FIELDS: ProfileField[] = [];

const ROLES: Record<number, string> = { 100: 'Owner', 200: 'Administrator', 300: 'Moderator', 400: 'Member', 600: 'Guest' };

function localTime(timezone: string | undefined): string | null {
  if (!timezone) return null;
  try {
    return new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit', timeZone: timezone }).format(new Date());
  } catch {
    return null;
  }
}

/** A person's card: who they are, their status, profile fields, and a way to message them. */
export function UserCard({ userId, onClose }: { userId: number; onClose: () => void }) {
  const user = useApp((s) => s.users.get(userId));
  const status = useApp((s) => s.userStatus.get(userId));
  const presence = useApp((s) => s.presence.get(userId));
  const me = useApp((s) => s.me);
  const users = useApp((s) => s.users);
  const fields = useApp((s) => (s.register.custom_profile_fields as ProfileField[] | undefined) ?? NO_FIELDS);
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  if (!user) return null;
  const time = localTime(user.timezone);
  const state = userId === me ? 'active' : presenceStatus(presence);
  const email = user.delivery_email || user.email;
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the click is on the backdrop; Esc closes the dialog natively.
    <dialog
      ref={ref}
      className="modal user-card"
      aria-labelledby="user-card-name"
      onClose={onClose}
      onClick={(e) => {
        // A click on the backdrop (the dialog itself, outside its content) closes it.
        if (e.target === e.currentTarget) e.currentTarget.close();
      }}
    >
      <div className="user-card-body">
        <Avatar url={user.avatar_url} name={user.full_name} size="large" />
        <h2 id="user-card-name">{user.full_name}</h2>
        <p className="soft">
          <span className={`presence-dot ${state}`} aria-hidden="true" /> {STATUS_LABEL[state]} · {user.is_bot ? 'Bot' : (ROLES[user.role] ?? 'Member')}
        </p>
        {status?.status_text || status?.emoji_name ? (
          <p className="user-card-status">
            <StatusEmoji status={status} /> {status.status_text}
          </p>
        ) : null}
        <dl className="user-card-fields">
          {email ? (
            <>
              <dt>Email</dt>
              <dd>
                <a href={`mailto:${email}`}>{email}</a>
              </dd>
            </>
          ) : null}
          {time ? (
            <>
              <dt>Local time</dt>
              <dd>{time}</dd>
            </>
          ) : null}
          {fields.map((f) => {
            const value = user.profile_data?.[f.id]?.value;
            if (!value) return null;
            return (
              <div key={f.id} className="field">
                <dt>{f.name}</dt>
                <dd>
                  <ProfileValue field={f} value={value} users={users} />
                </dd>
              </div>
            );
          })}
        </dl>
        <div className="modal-actions">
          <button type="button" onClick={() => ref.current?.close()}>
            Close
          </button>
          <a className="button primary" href={narrowHash([{ operator: 'dm', operand: String(userId) }], lookup)} onClick={() => ref.current?.close()}>
            Send direct message
          </a>
        </div>
      </div>
    </dialog>
  );
}
