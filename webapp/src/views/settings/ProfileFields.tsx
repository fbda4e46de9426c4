import { useState } from 'react';
import { RemoveProfileDataMutation, UpdateProfileDataMutation } from '../../api/operations/settings';
import { setApp, useApp } from '../../state/store';
import { SaveStatus, SettingsGroup, useSaving } from './controls';
import { run } from './save';

interface FieldDefinition {
  id: number;
  name: string;
  type: number;
  hint: string;
  field_data: string;
  order: number;
  editable_by_user?: boolean;
  required?: boolean;
}

const parse = <T,>(text: string | undefined, fallback: T): T => {
  try {
    return text ? (JSON.parse(text) as T) : fallback;
  } catch {
    return fallback;
  }
};

/** Saves one field's value (user ids for a person picker); an empty value clears it. */
async function saveField(field: FieldDefinition, value: string | number[]): Promise<string | null> {
  const empty = Array.isArray(value) ? value.length === 0 : value.trim() === '';
  const outcome = empty
    ? await run(RemoveProfileDataMutation, { fieldIds: [field.id] })
    : await run(UpdateProfileDataMutation, {
        data: [Array.isArray(value) ? { fieldId: field.id, userIds: value } : { fieldId: field.id, value: value.trim() }],
      });
  if (outcome.error !== null) return outcome.error;
  setApp((s) => {
    const me = s.users.get(s.me);
    if (!me) return {};
    const profileData = { ...(me.profile_data ?? {}) };
    if (empty) delete profileData[field.id];
    else profileData[field.id] = { value: Array.isArray(value) ? JSON.stringify(value) : value.trim() };
    return { users: new Map(s.users).set(s.me, { ...me, profile_data: profileData }) };
  });
  return null;
}

function UserPicker({ field, value, disabled, onSave }: { field: FieldDefinition; value: number[]; disabled: boolean; onSave: (ids: number[]) => void }) {
  const users = useApp((s) => s.users);
  const candidates = [...users.values()]
    .filter((u) => u.is_active && !u.is_bot && !value.includes(u.user_id))
    .sort((a, b) => a.full_name.localeCompare(b.full_name));
  return (
    <div className="profile-user-picker">
      <ul aria-label={`${field.name}: chosen people`}>
        {value.map((id) => (
          <li key={id}>
            {users.get(id)?.full_name ?? `User ${id}`}{' '}
            <button type="button" className="link-button" disabled={disabled} onClick={() => onSave(value.filter((v) => v !== id))}>
              Remove<span className="visually-hidden"> {users.get(id)?.full_name}</span>
            </button>
          </li>
        ))}
      </ul>
      <select id={`profile-field-${field.id}`} value="" disabled={disabled} onChange={(e) => e.target.value && onSave([...value, Number(e.target.value)])}>
        <option value="">Add a person…</option>
        {candidates.map((u) => (
          <option key={u.user_id} value={u.user_id}>
            {u.full_name}
          </option>
        ))}
      </select>
    </div>
  );
}

function FieldEditor({ field, disabled }: { field: FieldDefinition; disabled: boolean }) {
  const stored = useApp((s) => s.users.get(s.me)?.profile_data?.[field.id]?.value ?? '');
  const [draft, setDraft] = useState<string | null>(null);
  const [state, save] = useSaving();
  const id = `profile-field-${field.id}`;
  const commit = (value: string | number[]) => void save(() => saveField(field, value)).then((ok) => ok && setDraft(null));
  const commitDraft = () => (draft === null || draft === stored ? setDraft(null) : commit(draft));
  const text = {
    id,
    value: draft ?? stored,
    disabled,
    'aria-describedby': field.hint ? `${id}-hint` : undefined,
    onChange: (e: { target: { value: string } }) => setDraft(e.target.value),
    onBlur: commitDraft,
  };
  let control: JSX.Element;
  switch (field.type) {
    case 2:
      control = <textarea {...text} rows={3} />;
      break;
    case 3: {
      const choices = Object.entries(parse<Record<string, { text: string; order: string }>>(field.field_data, {})).sort(
        (a, b) => Number(a[1].order) - Number(b[1].order),
      );
      control = (
        <select id={id} value={stored} disabled={disabled} onChange={(e) => commit(e.target.value)}>
          <option value="">None</option>
          {choices.map(([key, c]) => (
            <option key={key} value={key}>
              {c.text}
            </option>
          ))}
        </select>
      );
      break;
    }
    case 4:
      control = <input type="date" id={id} value={stored} disabled={disabled} onChange={(e) => commit(e.target.value)} />;
      break;
    case 5:
      control = <input type="url" {...text} onKeyDown={(e) => e.key === 'Enter' && commitDraft()} />;
      break;
    case 6:
      control = <UserPicker field={field} value={parse<number[]>(stored, [])} disabled={disabled} onSave={commit} />;
      break;
    case 8:
      control = (
        <>
          <input {...text} list={`${id}-list`} onKeyDown={(e) => e.key === 'Enter' && commitDraft()} />
          <datalist id={`${id}-list`}>
            <option value="he/him" />
            <option value="she/her" />
            <option value="they/them" />
          </datalist>
        </>
      );
      break;
    default:
      // 1 short text and 7 external account (the account's name; the organization's pattern makes the link).
      control = <input {...text} onKeyDown={(e) => e.key === 'Enter' && commitDraft()} />;
  }
  const pattern = field.type === 7 ? parse<{ url_pattern?: string }>(field.field_data, {}).url_pattern : undefined;
  return (
    <div className="setting-row profile-field" data-field-type={field.type}>
      <label htmlFor={id}>
        {field.name}
        {field.required ? <span className="soft"> (required)</span> : null}
      </label>
      {control}
      <SaveStatus state={state} />
      {field.hint || pattern ? (
        <p className="setting-hint" id={`${id}-hint`}>
          {field.hint}
          {pattern ? ` (${pattern.replace('%(username)s', '…')})` : ''}
        </p>
      ) : null}
    </div>
  );
}

/** The organization's profile fields with the user's values; each saves on its own. */
export function ProfileFields() {
  const fields = useApp((s) => (s.register.custom_profile_fields ?? []) as FieldDefinition[]);
  const admin = useApp((s) => (s.users.get(s.me)?.role ?? 400) <= 200);
  if (fields.length === 0) return null;
  return (
    <SettingsGroup title="Profile">
      {[...fields]
        .sort((a, b) => a.order - b.order)
        .map((f) => (
          <FieldEditor key={f.id} field={f} disabled={f.editable_by_user === false && !admin} />
        ))}
    </SettingsGroup>
  );
}
