import type { Route } from '../../narrow/hash';
import { BrowseChannels } from '../channels/BrowseChannels';
import { DraftsView } from '../compose/DraftsView';
import { NarrowView } from '../feed/NarrowView';
import { InboxView } from '../inbox/InboxView';
import { RecentView } from '../inbox/RecentView';
import { OrganizationView } from '../organization/OrganizationView';
import { SettingsView } from '../settings/SettingsView';

/** The view the URL names. */
export function MainView({ route }: { route: Route }) {
  switch (route.view) {
    case 'narrow':
      return <NarrowView narrow={route.narrow} near={route.near} />;
    case 'inbox':
      return <InboxView />;
    case 'channels':
      return <BrowseChannels />;
    case 'drafts':
      return <DraftsView />;
    case 'recent':
      return <RecentView />;
    case 'organization':
      return <OrganizationView section={route.section} />;
    case 'settings':
      return <SettingsView section={route.section} />;
    default:
      return (
        <section className="placeholder" aria-label="Settings">
          <h2>Settings</h2>
          <p>Settings are not available in the web app yet.</p>
        </section>
      );
  }
}
