import { unicodeFromCode } from '../emoji/glyph';
import type { Choice } from './autocomplete';

export const optionId = (listId: string, index: number) => `${listId}-option-${index}`;

/**
 * A listbox of completions under a field that keeps the focus: the field points at the active
 * option with aria-activedescendant; a click picks without taking the focus away.
 */
export function Suggestions({
  id,
  label,
  choices,
  active,
  onPick,
}: {
  id: string;
  label: string;
  choices: Choice[];
  active: number;
  onPick: (choice: Choice) => void;
}) {
  if (choices.length === 0) return null;
  return (
    // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the ARIA listbox pattern
    <ul className="compose-suggestions" role="listbox" id={id} aria-label={label}>
      {choices.map((c, i) => (
        // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard works through the field (arrows, Enter, Tab)
        // biome-ignore lint/a11y/useFocusableInteractive: options are chosen from the field (aria-activedescendant)
        <li
          key={c.id}
          id={optionId(id, i)}
          // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the ARIA listbox pattern
          role="option"
          aria-selected={i === active}
          className={i === active ? 'active' : undefined}
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => onPick(c)}
        >
          {c.emojiCode ? (
            <span className="emoji" aria-hidden="true">
              {unicodeFromCode(c.emojiCode)}
            </span>
          ) : null}
          {c.imageUrl ? <img className="emoji" src={c.imageUrl} alt="" /> : null}
          <span className="label">{c.label}</span>
          {c.detail ? <span className="detail">{c.detail}</span> : null}
        </li>
      ))}
    </ul>
  );
}

/** Arrow keys, Enter/Tab and Escape for a field showing suggestions; true when the key was used. */
export function suggestionKey(
  e: React.KeyboardEvent,
  count: number,
  active: number,
  setActive: (i: number) => void,
  pick: (i: number) => void,
  close: () => void,
): boolean {
  if (count === 0) return false;
  if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
    setActive((active + (e.key === 'ArrowDown' ? 1 : count - 1)) % count);
  } else if ((e.key === 'Enter' && !e.shiftKey) || e.key === 'Tab') {
    pick(active);
  } else if (e.key === 'Escape') {
    close();
  } else return false;
  e.preventDefault();
  e.stopPropagation();
  return true;
}
