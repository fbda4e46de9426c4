import { useEffect, useRef } from 'react';
import { useApp } from '../../state/store';
import { useIsAdmin } from './admin-api';
import { BotsSection } from './BotsSection';
import { ChannelsSection } from './ChannelsSection';
import { DefaultChannelsSection } from './DefaultChannelsSection';
import { EmojiSection } from './EmojiSection';
import { ExportsSection } from './ExportsSection';
import { FoldersSection } from './FoldersSection';
import { GroupsSection } from './GroupsSection';
import { InvitesSection } from './InvitesSection';
import { LinkifiersSection } from './LinkifiersSection';
import { PlaygroundsSection } from './PlaygroundsSection';
import { ProfileFieldsSection } from './ProfileFieldsSection';
import { ProfileSection } from './ProfileSection';
import { REALM_SETTINGS } from './realm-settings';
import { SettingControl } from './SettingControl';
import { UsersSection } from './UsersSection';
import '../../styles/organization.css';

interface Section {
  name: string;
  label: string;
  /** Shown to administrators only, as Zulip does. */
  adminOnly?: boolean;
  render: (admin: boolean) => JSX.Element;
}

const settingsOf = (page: 'organization-settings' | 'organization-permissions', admin: boolean) => (
  <>
    {REALM_SETTINGS.filter((s) => s.page === page).map((s) => (
      <SettingControl key={s.name} spec={s} editable={admin} />
    ))}
  </>
);

/** Zulip's section names (`#organization/<name>`), in its menu's order. */
const SECTIONS: Section[] = [
  { name: 'organization-profile', label: 'Organization profile', render: (admin) => <ProfileSection editable={admin} /> },
  { name: 'organization-settings', label: 'Organization settings', render: (admin) => settingsOf('organization-settings', admin) },
  { name: 'organization-permissions', label: 'Organization permissions', render: (admin) => settingsOf('organization-permissions', admin) },
  { name: 'users', label: 'Users', render: (admin) => <UsersSection which="active" editable={admin} /> },
  { name: 'deactivated', label: 'Deactivated users', adminOnly: true, render: (admin) => <UsersSection which="deactivated" editable={admin} /> },
  { name: 'invites', label: 'Invitations', render: (admin) => <InvitesSection editable={admin} /> },
  { name: 'bot-list-admin', label: 'Bots', render: () => <BotsSection /> },
  { name: 'channels', label: 'Channels', render: (admin) => <ChannelsSection editable={admin} /> },
  { name: 'default-channels-list', label: 'Default channels', render: (admin) => <DefaultChannelsSection editable={admin} /> },
  { name: 'channel-folders', label: 'Channel folders', render: (admin) => <FoldersSection editable={admin} /> },
  { name: 'user-groups', label: 'User groups', render: () => <GroupsSection canCreate /> },
  { name: 'emoji-settings', label: 'Custom emoji', render: (admin) => <EmojiSection isAdmin={admin} /> },
  { name: 'linkifier-settings', label: 'Linkifiers', render: (admin) => <LinkifiersSection editable={admin} /> },
  { name: 'playground-settings', label: 'Code playgrounds', render: (admin) => <PlaygroundsSection editable={admin} /> },
  { name: 'profile-field-settings', label: 'Custom profile fields', render: (admin) => <ProfileFieldsSection editable={admin} /> },
  {
    name: 'data-exports-admin',
    label: 'Data exports',
    adminOnly: true,
    render: () => <ExportsSection />,
  },
];

/** Organization administration: the section menu on the left (above on phones) and the open section. */
export function OrganizationView({ section }: { section: string }) {
  const admin = useIsAdmin();
  const realmName = useApp((s) => String(s.register.realm_name ?? 'Organization'));
  const shown = SECTIONS.filter((s) => admin || !s.adminOnly);
  const open = shown.find((s) => s.name === section) ?? shown[0];
  const heading = useRef<HTMLHeadingElement>(null);
  // Focus follows the chosen section, as a page change would.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the section changes.
  useEffect(() => heading.current?.focus({ preventScroll: true }), [open.name]);
  return (
    <div className="org-page">
      <nav className="org-nav" aria-label="Organization settings">
        <h2>{realmName}</h2>
        <ul>
          {shown.map((s) => (
            <li key={s.name}>
              <a href={`#organization/${s.name}`} aria-current={s.name === open.name ? 'page' : undefined}>
                {s.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {/* Focusable, so that a section with nothing to operate (read-only for members) still scrolls from the keyboard. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard. */}
      <section className="org-section" aria-labelledby="org-section-title" data-section={open.name} tabIndex={0}>
        <h2 id="org-section-title" ref={heading} tabIndex={-1}>
          {open.label}
        </h2>
        {admin ? null : (
          <p className="org-note" data-testid="org-read-only">
            You are not an administrator: what only administrators may change is shown read-only.
          </p>
        )}
        {open.render(admin)}
      </section>
    </div>
  );
}
