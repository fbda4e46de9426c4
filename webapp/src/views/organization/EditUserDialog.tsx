import { useEffect, useState } from 'react';
import { ContentQuery, ProfileDataQuery, UpdateUserMutation } from '../../api/operations/organization';
import { useApp } from '../../state/store';
import type { UserRecord } from '../../state/types';
import { mutate, useAction, useFetched } from './admin-api';
import { OrgDialog } from './OrgDialog';
import { Status } from './Status';

type Field = { id: string; name: string; hint: string; type: number; fieldData: string };

/** An administrator's edit of a user: their name and custom profile fields. */
export function EditUserDialog({ user, onClose }: { user: UserRecord; onClose: () => void }) {
  const content = useFetched(ContentQuery, {});
  const profile = useFetched(ProfileDataQuery, { userId: user.user_id });
  const [name, setName] = useState(user.full_name);
  const [values, setValues] = useState<Record<number, string>>({});
  const action = useAction();
  const fields = [...(content.data?.customProfileFields ?? [])].sort((a, b) => a.order - b.order);
  const loaded = profile.data?.profileData;
  useEffect(() => {
    if (loaded) setValues(Object.fromEntries(loaded.map((e) => [e.fieldId, e.value])));
  }, [loaded]);
  const save = async () => {
    const before = Object.fromEntries((loaded ?? []).map((e) => [e.fieldId, e.value]));
    const profileData = fields
      .map((f) => Number(f.id))
      .filter((id) => (values[id] ?? '') !== (before[id] ?? ''))
      .map((id) => {
        const field = fields.find((f) => Number(f.id) === id)!;
        return field.type === 6 ? { fieldId: id, userIds: parseIds(values[id]) } : { fieldId: id, value: values[id] ?? '' };
      });
    const input = { fullName: name === user.full_name ? null : name, profileData: profileData.length ? profileData : null };
    if (await action.run(() => mutate(UpdateUserMutation, { id: user.user_id, input }))) onClose();
  };
  return (
    <OrgDialog title={`Edit ${user.full_name}`} onClose={onClose}>
      <form
        className="org-form"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <label htmlFor="edit-user-name">Name</label>
        <input id="edit-user-name" value={name} onChange={(e) => setName(e.target.value)} />
        {fields.map((f) => (
          <FieldInput key={f.id} field={f} value={values[Number(f.id)] ?? ''} onChange={(v) => setValues({ ...values, [Number(f.id)]: v })} />
        ))}
        <Status error={action.error ?? content.error ?? profile.error} />
        <button type="submit" className="primary" disabled={action.busy || name.trim() === ''}>
          Save changes
        </button>
      </form>
    </OrgDialog>
  );
}

/** A users field's value: a JSON list of ids. */
function parseIds(text: string | undefined): number[] {
  try {
    const ids = JSON.parse(text || '[]');
    return Array.isArray(ids) ? ids.map(Number) : [];
  } catch {
    return [];
  }
}

function FieldInput({ field, value, onChange }: { field: Field; value: string; onChange: (value: string) => void }) {
  const users = useApp((s) => s.users);
  const id = `edit-user-field-${field.id}`;
  const label = (
    <label htmlFor={id}>
      {field.name}
      {field.hint ? <span className="soft"> ({field.hint})</span> : null}
    </label>
  );
  if (field.type === 3) {
    const options = Object.entries(JSON.parse(field.fieldData || '{}') as Record<string, { text: string }>);
    return (
      <>
        {label}
        <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
          <option value="">None</option>
          {options.map(([key, o]) => (
            <option key={key} value={key}>
              {o.text}
            </option>
          ))}
        </select>
      </>
    );
  }
  if (field.type === 6) {
    const chosen = parseIds(value).map(String);
    return (
      <>
        {label}
        <select id={id} multiple value={chosen} onChange={(e) => onChange(JSON.stringify([...e.target.selectedOptions].map((o) => Number(o.value))))}>
          {[...users.values()]
            .filter((u) => u.is_active && !u.is_bot)
            .map((u) => (
              <option key={u.user_id} value={u.user_id}>
                {u.full_name}
              </option>
            ))}
        </select>
      </>
    );
  }
  const type = field.type === 4 ? 'date' : field.type === 5 ? 'url' : 'text';
  return (
    <>
      {label}
      {field.type === 2 ? (
        <textarea id={id} rows={3} value={value} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <input id={id} type={type} value={value} onChange={(e) => onChange(e.target.value)} />
      )}
    </>
  );
}
