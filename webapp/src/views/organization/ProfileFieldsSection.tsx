import { useState } from 'react';
import { ContentQuery, CreateProfileFieldMutation, DeleteProfileFieldMutation, ReorderProfileFieldsMutation } from '../../api/operations/organization';
import { mutate, useAction, useFetched } from './admin-api';
import { Status } from './Status';

/** Zulip's custom profile field types. */
export const FIELD_TYPES: { value: number; label: string }[] = [
  { value: 1, label: 'Text (short)' },
  { value: 2, label: 'Text (long)' },
  { value: 3, label: 'List of options' },
  { value: 4, label: 'Date' },
  { value: 5, label: 'Link' },
  { value: 6, label: 'Users' },
  { value: 7, label: 'External account' },
  { value: 8, label: 'Pronouns' },
];

/** Short text and external accounts can help find users in @-mention suggestions. */
const MATCHABLE_TYPES = [1, 7];

/** A choice field's options, as field_data: {"0": {"text": ..., "order": "1"}, ...}. */
const choiceData = (text: string) =>
  JSON.stringify(
    Object.fromEntries(
      text
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean)
        .map((t, i) => [String(i), { text: t, order: String(i + 1) }]),
    ),
  );

/** Custom profile fields: creating one of a type, ordering, deleting. */
export function ProfileFieldsSection({ editable }: { editable: boolean }) {
  const { data, error, reload } = useFetched(ContentQuery, {});
  const [name, setName] = useState('');
  const [hint, setHint] = useState('');
  const [type, setType] = useState(1);
  const [choices, setChoices] = useState('');
  const [matching, setMatching] = useState(false);
  const action = useAction();
  const fields = [...(data?.customProfileFields ?? [])].sort((a, b) => a.order - b.order);
  const refresh = () => void reload();
  const move = async (index: number, by: number) => {
    const order = fields.map((f) => Number(f.id));
    const [moved] = order.splice(index, 1);
    order.splice(index + by, 0, moved);
    if (await action.run(() => mutate(ReorderProfileFieldsMutation, { order }), null)) refresh();
  };
  return (
    <>
      {editable ? (
        <form
          className="org-form"
          aria-label="Add a custom profile field"
          onSubmit={async (e) => {
            e.preventDefault();
            const input = {
              name,
              hint,
              fieldData: type === 3 ? choiceData(choices) : type === 7 ? JSON.stringify({ subtype: 'github' }) : null,
              useForUserMatching: MATCHABLE_TYPES.includes(type) && matching,
            };
            if (await action.run(() => mutate(CreateProfileFieldMutation, { fieldType: type, input }), 'Field added')) {
              setName('');
              setHint('');
              setChoices('');
              setMatching(false);
              refresh();
            }
          }}
        >
          <label htmlFor="field-type">Type</label>
          <select id="field-type" value={type} onChange={(e) => setType(Number(e.target.value))}>
            {FIELD_TYPES.map((t) => (
              <option key={t.value} value={t.value}>
                {t.label}
              </option>
            ))}
          </select>
          <label htmlFor="field-name">Label</label>
          <input id="field-name" value={name} onChange={(e) => setName(e.target.value)} />
          <label htmlFor="field-hint">Hint</label>
          <input id="field-hint" value={hint} onChange={(e) => setHint(e.target.value)} />
          {type === 3 ? (
            <>
              <label htmlFor="field-choices">Options, separated by commas</label>
              <input id="field-choices" value={choices} onChange={(e) => setChoices(e.target.value)} />
            </>
          ) : null}
          {MATCHABLE_TYPES.includes(type) ? (
            <label>
              <input type="checkbox" checked={matching} onChange={(e) => setMatching(e.target.checked)} /> Use for @-mention suggestions
            </label>
          ) : null}
          <button type="submit" className="primary" disabled={action.busy || name.trim() === ''}>
            Add field
          </button>
        </form>
      ) : null}
      <Status error={error ?? action.error} done={action.done} />
      <ul className="org-list">
        {fields.map((f, i) => (
          <li key={f.id}>
            <span>
              <strong>{f.name}</strong> <span className="soft">{FIELD_TYPES.find((t) => t.value === f.type)?.label}</span>
              {f.useForUserMatching ? <span className="soft"> · used for @-mention suggestions</span> : null}
            </span>
            {editable ? (
              <span className="org-actions">
                <button type="button" aria-label={`Move ${f.name} up`} disabled={i === 0} onClick={() => void move(i, -1)}>
                  ↑
                </button>
                <button type="button" aria-label={`Move ${f.name} down`} disabled={i === fields.length - 1} onClick={() => void move(i, 1)}>
                  ↓
                </button>
                <button
                  type="button"
                  className="danger"
                  aria-label={`Delete the field ${f.name}`}
                  onClick={async () => {
                    if (await action.run(() => mutate(DeleteProfileFieldMutation, { id: Number(f.id) }), 'Deleted')) refresh();
                  }}
                >
                  Delete
                </button>
              </span>
            ) : null}
          </li>
        ))}
      </ul>
      {data && fields.length === 0 ? <p className="empty">No custom profile fields.</p> : null}
    </>
  );
}
