import { useState } from 'react';
import { useApp } from '../../state/store';
import type { Choice } from './autocomplete';
import { optionId, Suggestions, suggestionKey } from './Suggestions';

/** People to write to, as removable chips, added by name or email from suggestions. */
export function RecipientPicker({ userIds, onChange }: { userIds: number[]; onChange: (ids: number[]) => void }) {
  const users = useApp((s) => s.users);
  const me = useApp((s) => s.me);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const q = query.trim().toLowerCase();
  const choices: Choice[] =
    q === ''
      ? []
      : [...users.values()]
          .filter((u) => u.is_active && u.user_id !== me && !userIds.includes(u.user_id))
          .filter((u) => u.full_name.toLowerCase().includes(q) || u.email.toLowerCase().includes(q))
          .sort((a, b) => Number(b.full_name.toLowerCase().startsWith(q)) - Number(a.full_name.toLowerCase().startsWith(q)))
          .slice(0, 8)
          .map((u) => ({ id: String(u.user_id), label: u.full_name, detail: u.email, insert: String(u.user_id) }));
  const add = (choice: Choice | undefined) => {
    if (!choice) return;
    onChange([...userIds, Number(choice.insert)]);
    setQuery('');
    setActive(0);
  };
  const listId = 'compose-recipients-suggestions';
  return (
    <div className="compose-recipients">
      <label htmlFor="compose-recipients">To</label>
      <ul className="recipient-chips" aria-label="Recipients">
        {userIds.map((id) => (
          <li key={id} className="chip">
            {users.get(id)?.full_name ?? `User ${id}`}
            <button type="button" aria-label={`Remove ${users.get(id)?.full_name ?? id}`} onClick={() => onChange(userIds.filter((u) => u !== id))}>
              ×
            </button>
          </li>
        ))}
      </ul>
      <div className="combobox">
        <input
          id="compose-recipients"
          type="text"
          role="combobox"
          autoComplete="off"
          placeholder={userIds.length ? 'Add another person' : 'Name or email'}
          aria-autocomplete="list"
          aria-expanded={choices.length > 0}
          aria-controls={choices.length ? listId : undefined}
          aria-activedescendant={choices.length ? optionId(listId, active) : undefined}
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={(e) => {
            if (e.key === ',' && choices.length) {
              e.preventDefault();
              add(choices[active]);
              return;
            }
            if (
              suggestionKey(
                e,
                choices.length,
                active,
                setActive,
                (i) => add(choices[i]),
                () => setQuery(''),
              )
            )
              return;
            if (e.key === 'Backspace' && query === '' && userIds.length) onChange(userIds.slice(0, -1));
          }}
        />
        <Suggestions id={listId} label="People" choices={choices} active={active} onPick={add} />
      </div>
    </div>
  );
}
