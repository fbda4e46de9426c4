import { type FormEvent, useState } from 'react';
import { DeactivateOwnAccountMutation } from '../../api/operations/settings';
import { useApp } from '../../state/store';
import { ConfirmDialog } from '../layout/ConfirmDialog';
import { ApiKeyPanel } from './ApiKeyPanel';
import { Choice, SaveStatus, SettingsGroup, Toggle, useSaving } from './controls';
import { run, saveSettings } from './save';

function EmailForm() {
  const current = useApp((s) => (s.register.delivery_email as string | undefined) ?? s.users.get(s.me)?.email ?? '');
  const locked = useApp((s) => s.register.realm_email_changes_disabled === true && (s.users.get(s.me)?.role ?? 400) > 200);
  const [email, setEmail] = useState('');
  const [state, save] = useSaving();
  const [sent, setSent] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const wanted = email.trim();
    void save(() => saveSettings({ email: wanted })).then((ok) => {
      if (!ok) return;
      setSent(wanted);
      setEmail('');
    });
  };
  return (
    <form className="setting-row stacked" onSubmit={submit}>
      <p className="setting-wide">
        Your email address: <strong data-testid="settings-email">{current}</strong>
      </p>
      <label htmlFor="settings-new-email">New email address</label>
      <input id="settings-new-email" type="email" value={email} required disabled={locked} onChange={(e) => setEmail(e.target.value)} />
      <button type="submit" disabled={locked || email.trim() === ''}>
        Change email
      </button>
      <SaveStatus state={state.kind === 'saved' ? { kind: 'idle' } : state} />
      {sent ? (
        <p className="setting-wide" role="status">
          Check your email ({sent}) to confirm the new address.
        </p>
      ) : null}
      {locked ? <p className="setting-hint">Your organization does not let members change their email addresses.</p> : null}
    </form>
  );
}

function PasswordForm() {
  const [oldPassword, setOld] = useState('');
  const [newPassword, setNew] = useState('');
  const [state, save] = useSaving();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void save(() => saveSettings({ old_password: oldPassword, new_password: newPassword })).then((ok) => {
      if (!ok) return;
      setOld('');
      setNew('');
    });
  };
  return (
    <form className="setting-row stacked" onSubmit={submit}>
      <label htmlFor="settings-old-password">Current password</label>
      <input id="settings-old-password" type="password" autoComplete="current-password" value={oldPassword} required onChange={(e) => setOld(e.target.value)} />
      <label htmlFor="settings-new-password">New password</label>
      <input id="settings-new-password" type="password" autoComplete="new-password" value={newPassword} required onChange={(e) => setNew(e.target.value)} />
      <button type="submit" disabled={!oldPassword || !newPassword}>
        Change password
      </button>
      <SaveStatus state={state} />
      {state.kind === 'saved' ? <p className="setting-wide soft">Your password was changed; your other sessions were signed out.</p> : null}
    </form>
  );
}

function Deactivate() {
  const [asking, setAsking] = useState(false);
  const [state, save] = useSaving();
  const confirm = () => {
    setAsking(false);
    void save(async () => {
      const outcome = await run(DeactivateOwnAccountMutation, {});
      // The server ended the session: back to the login page.
      if (outcome.error === null) window.location.assign('/login/');
      return outcome.error;
    });
  };
  return (
    <div className="setting-row">
      <button type="button" className="danger" onClick={() => setAsking(true)}>
        Deactivate account
      </button>
      <SaveStatus state={state} />
      {asking ? (
        <ConfirmDialog
          title="Deactivate your account?"
          message="You will be signed out everywhere and will no longer be able to use this organization unless an administrator reactivates you."
          confirmLabel="Deactivate"
          onConfirm={confirm}
          onCancel={() => setAsking(false)}
        />
      ) : null}
    </div>
  );
}

const EMAIL_VISIBILITY = [
  { value: 1, label: 'Everyone' },
  { value: 2, label: 'Members only' },
  { value: 3, label: 'Administrators only' },
  { value: 4, label: 'Nobody' },
  { value: 5, label: 'Moderators and administrators' },
];

/** #settings/account-and-privacy. */
export function AccountSection() {
  return (
    <>
      <SettingsGroup title="Account">
        <EmailForm />
        <PasswordForm />
      </SettingsGroup>
      <SettingsGroup title="API key">
        <ApiKeyPanel />
      </SettingsGroup>
      <SettingsGroup title="Privacy">
        <Toggle name="presence_enabled" label="Let others see when I am online" />
        <Toggle name="send_private_typing_notifications" label="Let recipients see when I am typing direct messages" />
        <Toggle name="send_stream_typing_notifications" label="Let others see when I am typing in channels" />
        <Toggle name="send_read_receipts" label="Let others see when I have read messages" />
        <Toggle name="allow_private_data_export" label="Allow administrators to export my private data" />
        <Choice name="email_address_visibility" label="Who can see my real email address" options={EMAIL_VISIBILITY} />
      </SettingsGroup>
      <SettingsGroup title="Deactivate account">
        <Deactivate />
      </SettingsGroup>
    </>
  );
}
