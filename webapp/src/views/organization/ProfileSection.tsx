import { useEffect, useId, useState } from 'react';
import { DeleteRealmImageMutation, UpdateRealmSettingsMutation, UploadRealmImageMutation } from '../../api/operations/organization';
import { useApp } from '../../state/store';
import { mutate, useAction } from './admin-api';
import { REALM_SETTINGS } from './realm-settings';
import { SettingControl } from './SettingControl';
import { Status } from './Status';

/** The organization's name, description, icon and logos, and what Zulip lists with them. */
export function ProfileSection({ editable }: { editable: boolean }) {
  return (
    <>
      <NameAndDescription editable={editable} />
      <RealmImage image="icon" label="Organization icon" editable={editable} />
      <RealmImage image="logo" label="Organization logo (light theme)" editable={editable} />
      <RealmImage image="night_logo" label="Organization logo (dark theme)" editable={editable} />
      {REALM_SETTINGS.filter((s) => s.page === 'organization-profile').map((s) => (
        <SettingControl key={s.name} spec={s} editable={editable} />
      ))}
    </>
  );
}

function NameAndDescription({ editable }: { editable: boolean }) {
  const name = String(useApp((s) => s.register.realm_name) ?? '');
  const description = String(useApp((s) => s.register.realm_description) ?? '');
  const [draftName, setName] = useState(name);
  const [draftDescription, setDescription] = useState(description);
  useEffect(() => setName(name), [name]);
  useEffect(() => setDescription(description), [description]);
  const action = useAction();
  const changed = draftName !== name || draftDescription !== description;
  const save = () => {
    const settings: Record<string, string> = {};
    if (draftName !== name) settings.name = draftName;
    if (draftDescription !== description) settings.description = draftDescription;
    void action.run(() => mutate(UpdateRealmSettingsMutation, { settings }));
  };
  return (
    <form
      className="org-form"
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <label htmlFor="org-name">Organization name</label>
      <input id="org-name" value={draftName} disabled={!editable} onChange={(e) => setName(e.target.value)} />
      <label htmlFor="org-description">Organization description</label>
      <textarea id="org-description" rows={4} value={draftDescription} disabled={!editable} onChange={(e) => setDescription(e.target.value)} />
      {editable ? (
        <button type="submit" className="primary" disabled={!changed || action.busy}>
          Save changes
        </button>
      ) : null}
      <Status error={action.error} done={action.done} />
    </form>
  );
}

/** A file's bytes in base64, as the GraphQL upload mutations take them. */
export function fileToBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

function RealmImage({ image, label, editable }: { image: 'icon' | 'logo' | 'night_logo'; label: string; editable: boolean }) {
  const url = useApp((s) => s.register[`realm_${image}_url`]) as string | undefined;
  const source = useApp((s) => s.register[`realm_${image}_source`]) as string | undefined;
  const action = useAction();
  const id = useId();
  const upload = async (file: File) => {
    const contentBase64 = await fileToBase64(file);
    await action.run(() => mutate(UploadRealmImageMutation, { image, contentBase64 }), 'Uploaded');
  };
  return (
    <fieldset className="org-image">
      <legend>{label}</legend>
      {/* The defaults live elsewhere (a Gravatar, the server's logo): only an uploaded image is shown. */}
      {url && source === 'U' ? <img src={url} alt={`Current ${label.toLowerCase()}`} className={`org-image-${image}`} /> : <p className="soft">The default</p>}
      {editable ? (
        <div className="org-row">
          <label className="button-like" htmlFor={id}>
            Upload
          </label>
          <input
            id={id}
            className="visually-hidden"
            type="file"
            accept="image/*"
            disabled={action.busy}
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file) void upload(file);
            }}
          />
          {source === 'U' ? (
            <button type="button" disabled={action.busy} onClick={() => void action.run(() => mutate(DeleteRealmImageMutation, { image }), 'Removed')}>
              Remove
            </button>
          ) : null}
        </div>
      ) : null}
      <Status error={action.error} done={action.done} />
    </fieldset>
  );
}
