import { narrowHash } from '../narrow/hash';
import { openCompose } from '../views/compose/compose-bridge';
import { messageDmKey, type Narrow } from '../narrow/narrow';
import { getApp } from '../state/store';
import { lookup } from './lookup';
import { currentRoute, homeHash, isHomeHash, navigate } from './route';
import { isMutedPlace } from './unread-counts';

/**
 * Zulip's main keyboard shortcuts. The message cursor is the focused message element (each gets
 * tabindex=-1), so screen readers follow it and the feed can style `:focus` or `.selected`.
 */
export const SHORTCUTS: { keys: string[]; does: string }[] = [
  { keys: ['j', '↓'], does: 'Next message' },
  { keys: ['k', '↑'], does: 'Previous message' },
  { keys: ['r', 'Enter'], does: 'Reply to the selected message' },
  { keys: ['c'], does: 'New channel message' },
  { keys: ['x'], does: 'New direct message' },
  { keys: ['n'], does: 'Next unread conversation' },
  { keys: ['/'], does: 'Search' },
  { keys: ['Esc'], does: 'Close, or go to the home view' },
  { keys: ['?'], does: 'Show these shortcuts' },
];

export const SHOW_SHORTCUTS_EVENT = 'parley:shortcuts';

function typing(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || !el.tagName) return false;
  return el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName);
}

const messageElements = () => [...document.querySelectorAll<HTMLElement>('#main [data-message-id]')];

function selected(): HTMLElement | null {
  return (
    (document.activeElement as HTMLElement | null)?.closest<HTMLElement>('[data-message-id]') ??
    document.querySelector<HTMLElement>('#main [data-message-id].selected')
  );
}

function select(el: HTMLElement): void {
  for (const old of document.querySelectorAll('#main [data-message-id].selected')) {
    old.classList.remove('selected');
    old.removeAttribute('aria-current');
  }
  el.classList.add('selected');
  el.setAttribute('aria-current', 'true');
  if (!el.hasAttribute('tabindex')) el.tabIndex = -1;
  el.focus({ preventScroll: true });
  el.scrollIntoView({ block: 'nearest' });
}

function move(step: 1 | -1): boolean {
  const all = messageElements();
  if (all.length === 0) return false;
  const current = selected();
  let index = current ? all.indexOf(current) : -1;
  if (index < 0) {
    // Start from the first message in view going down, the last in view going up.
    const visible = all.filter((el) => {
      const r = el.getBoundingClientRect();
      return r.bottom > 0 && r.top < window.innerHeight;
    });
    const start = step === 1 ? visible[0] : visible[visible.length - 1];
    select(start ?? all[all.length - 1]);
    return true;
  }
  index = Math.max(0, Math.min(all.length - 1, index + step));
  select(all[index]);
  return true;
}

function reply(): void {
  const el = selected();
  const message = el ? getApp().messages.get(Number(el.dataset.messageId)) : undefined;
  if (!message) {
    openCompose('stream');
    return;
  }
  const narrow: Narrow =
    message.type === 'private'
      ? [{ operator: 'dm', operand: messageDmKey(message, getApp().me) }]
      : [
          { operator: 'channel', operand: String(message.streamId) },
          { operator: 'topic', operand: message.topic },
        ];
  // Reply where the message is: its conversation opens (at the message), and the box is addressed to it.
  const route = currentRoute();
  const here = route.view === 'narrow' && JSON.stringify(route.narrow) === JSON.stringify(narrow);
  if (!here) navigate(narrowHash(narrow, lookup, message.id));
  openCompose(message.type === 'private' ? 'private' : 'stream');
}

/** The next conversation with unread messages: the one whose oldest unread message is oldest. */
function nextUnread(): void {
  const state = getApp();
  const route = currentRoute();
  const open = route.view === 'narrow' ? JSON.stringify(route.narrow) : '';
  const seen = new Set<string>();
  for (const id of [...state.unread.keys()].sort((a, b) => a - b)) {
    const place = state.unread.get(id)!;
    if (isMutedPlace(state, place)) continue;
    const narrow: Narrow =
      place.kind === 'dm'
        ? [{ operator: 'dm', operand: place.key }]
        : [
            { operator: 'channel', operand: String(place.streamId) },
            { operator: 'topic', operand: place.topic },
          ];
    const key = JSON.stringify(narrow);
    if (key === open || seen.has(key)) continue;
    seen.add(key);
    navigate(narrowHash(narrow, lookup));
    return;
  }
}

function onKeyDown(e: KeyboardEvent): void {
  if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
  if (document.querySelector('dialog[open]') && e.key !== 'Escape') return;
  let handled = true;
  switch (e.key) {
    case 'j':
    case 'ArrowDown':
      handled = move(1);
      break;
    case 'k':
    case 'ArrowUp':
      handled = move(-1);
      break;
    case 'r':
    case 'Enter':
      // Enter replies only on the message itself: on a link or button it keeps its own meaning.
      if (e.key === 'Enter' && !(e.target as HTMLElement | null)?.hasAttribute?.('data-message-id')) handled = false;
      else reply();
      break;
    case 'c':
      openCompose('stream');
      break;
    case 'x':
      openCompose('private');
      break;
    case 'n':
      nextUnread();
      break;
    case '/':
      document.querySelector<HTMLInputElement>('#search')?.focus();
      break;
    case '?':
      window.dispatchEvent(new Event(SHOW_SHORTCUTS_EVENT));
      break;
    case 'Escape': {
      if (document.querySelector('dialog[open]')) {
        handled = false;
        break;
      }
      const expanded = document.querySelector<HTMLElement>('[aria-expanded="true"][aria-haspopup]');
      if (expanded) expanded.click();
      // As in Zulip, Esc with nothing to close goes home only if the user wants it to.
      else if (getApp().settings.web_escape_navigates_to_home_view !== false && !isHomeHash(window.location.hash)) navigate(homeHash());
      else handled = false;
      break;
    }
    default:
      handled = false;
  }
  if (handled) e.preventDefault();
}

let started = false;
export function startKeyboard(): void {
  if (started) return;
  started = true;
  document.addEventListener('keydown', onKeyDown);
}
