import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import type { Msg } from '../../state/types';
import { copyLink, markUnreadFrom, permissions, quoteAndReply, setStarred } from './actions';
import { DeleteDialog } from './DeleteDialog';
import { MoveDialog } from './MoveDialog';

interface Item {
  label: string;
  run: () => void | Promise<unknown>;
}

/** The "Message actions" button and its menu; arrow keys move, Escape closes and gives focus back. */
export function MessageMenu({ message, listKey, onEdit, onError }: { message: Msg; listKey: string; onEdit: () => void; onError: (e: string | null) => void }) {
  const [open, setOpen] = useState(false);
  const [upward, setUpward] = useState(false);
  const [dialog, setDialog] = useState<'delete' | 'move' | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const may = permissions(message);
  const starred = message.flags.includes('starred');
  const report = (p: Promise<string | null | void>) => void p.then((e) => onError(e ?? null)).catch((e: Error) => onError(e.message));

  const items: Item[] = [
    { label: 'Quote and reply', run: () => report(quoteAndReply(message)) },
    ...(may.edit ? [{ label: 'Edit', run: onEdit }] : []),
    ...(may.move ? [{ label: 'Move messages', run: () => setDialog('move') }] : []),
    ...(may.delete ? [{ label: 'Delete', run: () => setDialog('delete') }] : []),
    { label: starred ? 'Unstar' : 'Star', run: () => report(setStarred(message.id, !starred)) },
    { label: 'Mark as unread', run: () => report(markUnreadFrom(message.id, listKey)) },
    { label: 'Copy link', run: () => report(copyLink(message)) },
  ];

  useEffect(() => {
    if (!open) return;
    menu.current?.querySelector<HTMLElement>('[role=menuitem]')?.focus();
    const outside = (e: PointerEvent) => {
      if (!menu.current?.contains(e.target as Node) && !button.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);

  const onKeyDown = (e: KeyboardEvent) => {
    const all = [...(menu.current?.querySelectorAll<HTMLElement>('[role=menuitem]') ?? [])];
    const at = all.indexOf(document.activeElement as HTMLElement);
    const step = { ArrowDown: 1, ArrowUp: -1 }[e.key];
    if (step) all[(at + step + all.length) % all.length]?.focus();
    else if (e.key === 'Home') all[0]?.focus();
    else if (e.key === 'End') all[all.length - 1]?.focus();
    else if (e.key === 'Escape' || e.key === 'Tab') {
      setOpen(false);
      button.current?.focus();
    } else return;
    e.preventDefault();
    e.stopPropagation();
  };

  return (
    <>
      <button
        ref={button}
        type="button"
        className="message-tool"
        aria-label="Message actions"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => {
          // Near the bottom of the list the menu opens upwards, so that the list does not cut it off.
          const area = button.current?.closest('.feed-scroll')?.getBoundingClientRect();
          const at = button.current?.getBoundingClientRect();
          setUpward(Boolean(area && at && at.bottom + 280 > area.bottom && at.top - 280 > area.top));
          setOpen(!open);
        }}
      >
        ⋮
      </button>
      {open ? (
        <div ref={menu} role="menu" aria-label="Message actions" className={upward ? 'message-menu message-menu-up' : 'message-menu'} onKeyDown={onKeyDown}>
          {items.map((item) => (
            <button
              key={item.label}
              type="button"
              role="menuitem"
              tabIndex={-1}
              onClick={() => {
                setOpen(false);
                button.current?.focus();
                void item.run();
              }}
            >
              {item.label}
            </button>
          ))}
        </div>
      ) : null}
      {dialog === 'delete' ? <DeleteDialog message={message} onClose={() => setDialog(null)} /> : null}
      {dialog === 'move' ? <MoveDialog message={message} onClose={() => setDialog(null)} /> : null}
    </>
  );
}
