import { useEffect, useRef } from 'react';
import { AccountSection } from './AccountSection';
import { AlertWordsSection } from './AlertWordsSection';
import { BotsSection } from './BotsSection';
import { MutedUsersSection } from './MutedUsersSection';
import { NotificationsSection } from './NotificationsSection';
import { PreferencesSection } from './PreferencesSection';
import { ProfileSection } from './ProfileSection';
import { SnippetsSection } from './SnippetsSection';
import { SubscriptionsSection } from './SubscriptionsSection';
import { TopicsSection } from './TopicsSection';
import '../../styles/settings.css';

/** Zulip's section names (`#settings/<name>`), in its menu's order. */
const SECTIONS: { name: string; label: string; render: () => JSX.Element }[] = [
  { name: 'profile', label: 'Profile', render: () => <ProfileSection /> },
  { name: 'account-and-privacy', label: 'Account & privacy', render: () => <AccountSection /> },
  { name: 'preferences', label: 'Preferences', render: () => <PreferencesSection /> },
  { name: 'notifications', label: 'Notifications', render: () => <NotificationsSection /> },
  { name: 'subscriptions', label: 'Channels', render: () => <SubscriptionsSection /> },
  { name: 'your-bots', label: 'Bots', render: () => <BotsSection /> },
  { name: 'alert-words', label: 'Alert words', render: () => <AlertWordsSection /> },
  { name: 'topics', label: 'Topics', render: () => <TopicsSection /> },
  { name: 'muted-users', label: 'Muted users', render: () => <MutedUsersSection /> },
  { name: 'saved-snippets', label: 'Saved snippets', render: () => <SnippetsSection /> },
];

/** Personal settings: the section menu on the left (above on phones) and the open section. */
export function SettingsView({ section }: { section: string }) {
  const open = SECTIONS.find((s) => s.name === section) ?? SECTIONS[0];
  const heading = useRef<HTMLHeadingElement>(null);
  // Focus follows the chosen section, as a page change would.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the section changes.
  useEffect(() => {
    heading.current?.focus({ preventScroll: true });
    // On phones the menu is a row that scrolls sideways: keep the open section's link in sight.
    document.querySelector('.settings-nav [aria-current="page"]')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [open.name]);
  return (
    <div className="settings-page">
      <nav className="settings-nav" aria-label="Personal settings">
        <h2>Personal settings</h2>
        <ul>
          {SECTIONS.map((s) => (
            <li key={s.name}>
              <a href={`#settings/${s.name}`} aria-current={s.name === open.name ? 'page' : undefined}>
                {s.label}
              </a>
            </li>
          ))}
          <li>
            <a href="#drafts">Drafts</a>
          </li>
        </ul>
      </nav>
      <section className="settings-section" aria-labelledby="settings-section-title" data-section={open.name}>
        <h2 id="settings-section-title" ref={heading} tabIndex={-1}>
          {open.label}
        </h2>
        {open.render()}
      </section>
    </div>
  );
}
