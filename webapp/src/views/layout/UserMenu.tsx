import { useEffect, useRef, useState } from 'react';
import { csrfToken } from '../../api/csrf';
import { notificationPermission, requestNotificationPermission } from '../../app/notifications';
import { useApp } from '../../state/store';
import { Avatar } from '../people/Avatar';

/** The user's menu: settings, desktop notifications (asked only from here) and signing out. */
export function UserMenu() {
  const me = useApp((s) => s.users.get(s.me));
  const [open, setOpen] = useState(false);
  const [permission, setPermission] = useState(notificationPermission());
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const close = (e: Event) => {
      if (e instanceof KeyboardEvent ? e.key === 'Escape' : !root.current?.contains(e.target as Node)) setOpen(false);
    };
    const leave = () => setOpen(false);
    document.addEventListener('mousedown', close);
    document.addEventListener('keydown', close);
    window.addEventListener('hashchange', leave);
    return () => {
      window.removeEventListener('hashchange', leave);
      document.removeEventListener('mousedown', close);
      document.removeEventListener('keydown', close);
    };
  }, [open]);
  return (
    <div className="user-menu" ref={root}>
      <button type="button" className="user-menu-button" aria-haspopup="true" aria-expanded={open} aria-controls="user-menu" onClick={() => setOpen(!open)}>
        <Avatar url={me?.avatar_url} name={me?.full_name ?? ''} size="small" />
        <span className="user-menu-name">{me?.full_name ?? 'Account'}</span>
      </button>
      {open ? (
        <div id="user-menu" className="popover user-menu-popover">
          <p className="user-menu-who">
            <strong>{me?.full_name}</strong>
            <br />
            <span className="soft">{me?.email}</span>
          </p>
          <a href="#settings/profile">Personal settings</a>
          {me && me.role <= 200 ? <a href="#organization">Organization settings</a> : null}
          {permission === 'default' ? (
            <button type="button" className="link-button" onClick={() => void requestNotificationPermission().then(setPermission)}>
              Enable desktop notifications
            </button>
          ) : null}
          {permission === 'denied' ? <p className="soft">Desktop notifications are blocked in this browser.</p> : null}
          <form method="post" action="/logout/">
            <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken()} />
            <button type="submit" className="link-button">
              Sign out
            </button>
          </form>
        </div>
      ) : null}
    </div>
  );
}
