import { useEffect, useState } from 'react';
import { SHOW_SHORTCUTS_EVENT, startKeyboard } from '../../app/keyboard';
import { startNotifications } from '../../app/notifications';
import { startPresence } from '../../app/presence';
import { useRoute } from '../../app/route';
import { startTitle } from '../../app/title';
import { useApp } from '../../state/store';
import { PeopleSidebar } from '../people/PeopleSidebar';
import { startTheme } from '../settings/theme';
import { TimezoneNotice } from '../settings/TimezoneNotice';
import { LeftSidebar } from '../sidebar/LeftSidebar';
import { ConnectionBanner } from './ConnectionBanner';
import { Header } from './Header';
import { MainView } from './MainView';
import { NarrowHeader } from './NarrowHeader';
import { ShortcutsDialog } from './ShortcutsDialog';
import { useMediaQuery } from './useMediaQuery';
import '../../styles/layout.css';
import '../../styles/preferences.css';

/** The page: header, conversations on the left, the open view in the middle, people on the right. */
export function App() {
  const ready = useApp((s) => s.ready);
  const route = useRoute();
  const [leftOpen, setLeftOpen] = useState(false);
  const [rightOpen, setRightOpen] = useState(false);
  const [shortcuts, setShortcuts] = useState(false);
  // Zulip's left_side_userlist: where the people list would be a drawer, it sits in the left sidebar.
  const narrowWindow = useMediaQuery('(max-width: 1000px)');
  const peopleLeft = useApp((s) => s.settings.left_side_userlist === true) && narrowWindow;
  // The organization's media_preview_size scales message image and video previews (feed.css).
  const previewSize = useApp((s) => Number(s.register.realm_media_preview_size ?? 100));
  useEffect(() => {
    document.documentElement.style.setProperty('--media-preview-scale', String(previewSize / 100));
  }, [previewSize]);

  useEffect(() => {
    if (!ready) return;
    startTitle();
    startKeyboard();
    startNotifications();
    startPresence();
    startTheme();
  }, [ready]);

  useEffect(() => {
    const show = () => setShortcuts(true);
    window.addEventListener(SHOW_SHORTCUTS_EVENT, show);
    return () => window.removeEventListener(SHOW_SHORTCUTS_EVENT, show);
  }, []);

  // Esc closes an open drawer (before the keyboard shortcuts see it).
  useEffect(() => {
    if (!leftOpen && !rightOpen) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || document.querySelector('dialog[open]')) return;
      e.preventDefault();
      setLeftOpen(false);
      setRightOpen(false);
    };
    document.addEventListener('keydown', onKey, true);
    return () => document.removeEventListener('keydown', onKey, true);
  }, [leftOpen, rightOpen]);

  // On phones the drawers close once something in them was chosen.
  // biome-ignore lint/correctness/useExhaustiveDependencies: closes on every change of view.
  useEffect(() => {
    setLeftOpen(false);
    setRightOpen(false);
  }, [route]);

  if (!ready) return <p className="boot">Loading…</p>;
  return (
    <div className="app-shell">
      <ConnectionBanner />
      <Header
        leftOpen={leftOpen}
        rightOpen={rightOpen}
        onToggleLeft={() => {
          setLeftOpen(!leftOpen);
          setRightOpen(false);
        }}
        onToggleRight={() => {
          setRightOpen(!rightOpen);
          setLeftOpen(false);
        }}
        peopleButton={!peopleLeft}
      />
      <TimezoneNotice />
      <div className="app-body">
        <LeftSidebar id="left-sidebar" open={leftOpen}>
          {peopleLeft ? <PeopleSidebar id="people-list" open={false} inLeft /> : null}
        </LeftSidebar>
        <main className="main" id="main">
          {route.view === 'narrow' || route.view === 'inbox' || route.view === 'recent' ? <NarrowHeader /> : null}
          <MainView route={route} />
        </main>
        {peopleLeft ? null : <PeopleSidebar id="right-sidebar" open={rightOpen} />}
        {leftOpen || rightOpen ? (
          <button
            type="button"
            className="drawer-scrim"
            aria-label="Close the side panel"
            onClick={() => {
              setLeftOpen(false);
              setRightOpen(false);
            }}
          />
        ) : null}
      </div>
      {shortcuts ? <ShortcutsDialog onClose={() => setShortcuts(false)} /> : null}
    </div>
  );
}
