import { type FormEvent, useState } from 'react';
import { DeleteAvatarMutation, UploadAvatarMutation } from '../../api/operations/settings';
import { setApp, useApp } from '../../state/store';
import { Avatar } from '../people/Avatar';
import { SaveStatus, SettingsGroup, useSaving } from './controls';
import { ProfileFields } from './ProfileFields';
import { run, saveSettings } from './save';
import { StatusEditor } from './StatusEditor';

const isAdmin = (role: number | undefined) => role !== undefined && role <= 200;

/** Changes the user's record in this tab at once; the realm_user event brings the same to other tabs. */
function patchMe(patch: Record<string, unknown>) {
  setApp((s) => {
    const me = s.users.get(s.me);
    if (!me) return {};
    return { users: new Map(s.users).set(s.me, { ...me, ...patch }) };
  });
}

function NameForm() {
  const me = useApp((s) => s.users.get(s.me));
  const locked = useApp((s) => s.register.realm_name_changes_disabled === true || s.register.server_name_changes_disabled === true);
  const [name, setName] = useState<string | null>(null);
  const [state, save] = useSaving();
  const disabled = locked && !isAdmin(me?.role);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const fullName = (name ?? me?.full_name ?? '').trim();
    void save(async () => {
      const error = await saveSettings({ full_name: fullName });
      if (error === null) patchMe({ full_name: fullName });
      return error;
    }).then((ok) => ok && setName(null));
  };
  return (
    <form className="setting-row" onSubmit={submit}>
      <label htmlFor="settings-full-name">Name</label>
      <input id="settings-full-name" value={name ?? me?.full_name ?? ''} disabled={disabled} maxLength={60} onChange={(e) => setName(e.target.value)} />
      <button type="submit" disabled={disabled || name === null}>
        Save name
      </button>
      <SaveStatus state={state} />
      {disabled ? <p className="setting-hint">Your organization does not let members change their names.</p> : null}
    </form>
  );
}

const readBase64 = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });

function AvatarForm() {
  const me = useApp((s) => s.users.get(s.me));
  const locked = useApp((s) => s.register.realm_avatar_changes_disabled === true || s.register.server_avatar_changes_disabled === true);
  const [state, save] = useSaving();
  const disabled = (locked && !isAdmin(me?.role)) || state.kind === 'saving';
  const upload = (file: File) =>
    save(async () => {
      const outcome = await run(UploadAvatarMutation, { contentBase64: await readBase64(file) });
      if (outcome.error === null) patchMe({ avatar_url: outcome.data.uploadAvatar.avatarUrl });
      return outcome.error;
    });
  const remove = () =>
    save(async () => {
      const outcome = await run(DeleteAvatarMutation, {});
      if (outcome.error === null) patchMe({ avatar_url: outcome.data.deleteAvatar.avatarUrl });
      return outcome.error;
    });
  return (
    <div className="setting-row settings-avatar">
      <span className="settings-avatar-picture" data-testid="settings-avatar">
        <Avatar url={me?.avatar_url} name={me?.full_name ?? ''} size="large" />
      </span>
      <label className="button-like">
        Upload avatar
        <input
          type="file"
          accept="image/png,image/jpeg,image/gif,image/webp"
          className="visually-hidden"
          aria-label="Upload avatar"
          disabled={disabled}
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) void upload(file);
          }}
        />
      </label>
      <button type="button" onClick={() => void remove()} disabled={disabled}>
        Delete avatar
      </button>
      <SaveStatus state={state} />
      {locked && !isAdmin(me?.role) ? <p className="setting-hint">Your organization does not let members change their avatars.</p> : null}
    </div>
  );
}

const zones = (() => {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return ['UTC'];
  }
})();

function TimeZone() {
  const zone = useApp((s) => (s.settings.timezone as string | undefined) ?? s.users.get(s.me)?.timezone ?? '');
  const [state, save] = useSaving();
  return (
    <div className="setting-row">
      <label htmlFor="settings-timezone">Time zone</label>
      <select
        id="settings-timezone"
        value={zone}
        onChange={(e) => {
          const timezone = e.target.value;
          void save(async () => {
            const error = await saveSettings({ timezone });
            if (error === null) patchMe({ timezone });
            return error;
          });
        }}
      >
        <option value="">Not set</option>
        {zone && !zones.includes(zone) ? <option value={zone}>{zone}</option> : null}
        {zones.map((z) => (
          <option key={z} value={z}>
            {z}
          </option>
        ))}
      </select>
      <SaveStatus state={state} />
    </div>
  );
}

/** #settings/profile: name, avatar, time zone, status and the organization's profile fields. */
export function ProfileSection() {
  return (
    <>
      <SettingsGroup title="Name and avatar">
        <NameForm />
        <AvatarForm />
        <TimeZone />
      </SettingsGroup>
      <SettingsGroup title="Status">
        <StatusEditor />
      </SettingsGroup>
      <ProfileFields />
    </>
  );
}
