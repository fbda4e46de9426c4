import { type CSSProperties, type KeyboardEvent, useEffect, useMemo, useRef, useState } from 'react';
import { Modal } from '../feed/Modal';
import { type Category, loadCatalog, type PickerEmoji, searchCatalog } from './catalog';
import type { EmojiPickerProps } from './types';

const WIDTH = 352;
const HEIGHT = 400;

/** Next to the button on a wide screen; centred (by the style sheet) on a phone. */
function placement(anchor: HTMLElement | null): CSSProperties | undefined {
  if (!anchor || window.innerWidth <= 700) return undefined;
  const r = anchor.getBoundingClientRect();
  const clampTop = (top: number) => Math.min(Math.max(8, top), window.innerHeight - HEIGHT - 8);
  const clampLeft = (left: number) => Math.min(Math.max(8, left), window.innerWidth - WIDTH - 8);
  if (r.bottom + 4 + HEIGHT <= window.innerHeight) return { margin: 0, position: 'fixed', top: r.bottom + 4, left: clampLeft(r.right - WIDTH) };
  if (r.top - 4 - HEIGHT >= 8) return { margin: 0, position: 'fixed', top: r.top - 4 - HEIGHT, left: clampLeft(r.right - WIDTH) };
  // Neither below nor above: beside the button, on its left.
  return { margin: 0, position: 'fixed', top: clampTop(r.top - HEIGHT / 2), left: clampLeft(r.left - WIDTH - 8) };
}

/** Moves focus to the emoji button nearest in the arrow's direction, by where the buttons are drawn. */
function moveFocus(grid: HTMLElement, from: HTMLElement, key: string): HTMLElement | null {
  const buttons = [...grid.querySelectorAll<HTMLElement>('button[data-emoji-name]')];
  const at = buttons.indexOf(from);
  if (key === 'ArrowRight') return buttons[at + 1] ?? null;
  if (key === 'ArrowLeft') return buttons[at - 1] ?? null;
  const here = from.getBoundingClientRect();
  const down = key === 'ArrowDown';
  let best: HTMLElement | null = null;
  let bestScore = Number.POSITIVE_INFINITY;
  for (let i = down ? at + 1 : at - 1; i >= 0 && i < buttons.length; i += down ? 1 : -1) {
    const r = buttons[i].getBoundingClientRect();
    const dy = down ? r.top - here.top : here.top - r.top;
    if (dy < 4) continue;
    if (best && dy > bestScore / 1000 + 4) break;
    const score = dy * 1000 + Math.abs(r.left - here.left);
    if (score < bestScore) {
      best = buttons[i];
      bestScore = score;
    }
  }
  return best;
}

function EmojiButton({ emoji, onPick }: { emoji: PickerEmoji; onPick: (e: PickerEmoji) => void }) {
  return (
    <button
      type="button"
      className="picker-emoji"
      data-emoji-name={emoji.name}
      aria-label={emoji.name.replace(/_/g, ' ')}
      title={`:${emoji.name}:`}
      onClick={() => onPick(emoji)}
    >
      {emoji.url ? <img src={emoji.url} alt="" loading="lazy" /> : emoji.glyph}
    </button>
  );
}

/** A searchable emoji picker: type to filter, arrows to move, Enter to choose, Escape to close. */
export default function EmojiPicker({ anchor, onPick, onClose }: EmojiPickerProps) {
  const [categories, setCategories] = useState<Category[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  const grid = useRef<HTMLDivElement>(null);
  const search = useRef<HTMLInputElement>(null);
  const style = useMemo(() => placement(anchor), [anchor]);
  useEffect(() => {
    loadCatalog().then(setCategories, (e: Error) => setError(e.message));
  }, []);
  useEffect(() => search.current?.focus(), []);
  const results = useMemo(() => (categories && query.trim() ? searchCatalog(categories, query) : null), [categories, query]);
  const pick = (e: PickerEmoji) => onPick({ name: e.name, code: e.code, type: e.type });

  const onGridKey = (e: KeyboardEvent) => {
    if (!grid.current || !e.key.startsWith('Arrow')) return;
    const from = document.activeElement as HTMLElement;
    const next = moveFocus(grid.current, from, e.key);
    e.preventDefault();
    if (next) next.focus();
    else if (e.key === 'ArrowUp') search.current?.focus();
  };
  const onSearchKey = (e: KeyboardEvent) => {
    const first = grid.current?.querySelector<HTMLElement>('button[data-emoji-name]');
    if (e.key === 'ArrowDown' && first) {
      e.preventDefault();
      first.focus();
    } else if (e.key === 'Enter') {
      e.preventDefault();
      const top = results?.[0];
      if (top) pick(top);
    } else if (e.key === 'Escape') {
      // A search field would only clear itself: Escape closes the picker, as everywhere in it.
      e.preventDefault();
      onClose();
    }
  };

  return (
    <Modal label="Emoji picker" onClose={onClose} className="emoji-picker" style={style}>
      <div className="picker-body">
        <input
          ref={search}
          type="search"
          className="picker-search"
          aria-label="Search emoji"
          placeholder="Search emoji"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={onSearchKey}
        />
        {/* biome-ignore lint/a11y/noStaticElementInteractions: arrow keys move between the emoji buttons inside */}
        <div ref={grid} className="picker-grid" onKeyDown={onGridKey}>
          {error ? <p className="form-error">{error}</p> : null}
          {!categories && !error ? <p className="picker-note">Loading…</p> : null}
          {results ? (
            results.length === 0 ? (
              <p className="picker-note">No emoji match.</p>
            ) : (
              <section className="picker-section" aria-label="Search results">
                {results.map((e) => (
                  <EmojiButton key={`${e.type}:${e.code}`} emoji={e} onPick={pick} />
                ))}
              </section>
            )
          ) : (
            categories?.map((c) => (
              <section key={c.key} aria-label={c.label}>
                <h3 className="picker-heading">{c.label}</h3>
                <div className="picker-section">
                  {c.emojis.map((e) => (
                    <EmojiButton key={`${e.type}:${e.code}`} emoji={e} onPick={pick} />
                  ))}
                </div>
              </section>
            ))
          )}
        </div>
      </div>
    </Modal>
  );
}
