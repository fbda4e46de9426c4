import { lazy, Suspense } from 'react';
import type { Route } from '../../narrow/hash';
import { BrowseChannels } from '../channels/BrowseChannels';
import { DraftsView } from '../compose/DraftsView';
import { NarrowView } from '../feed/NarrowView';
import { InboxView } from '../inbox/InboxView';
import { RecentView } from '../inbox/RecentView';

// Settings and administration are fetched when first opened: most visits never need them.
const SettingsView = lazy(() => import('../settings/SettingsView').then((m) => ({ default: m.SettingsView })));
const OrganizationView = lazy(() => import('../organization/OrganizationView').then((m) => ({ default: m.OrganizationView })));

const loading = <p className="placeholder">Loading…</p>;

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
      return (
        <Suspense fallback={loading}>
          <OrganizationView section={route.section} />
        </Suspense>
      );
    case 'settings':
      return (
        <Suspense fallback={loading}>
          <SettingsView section={route.section} />
        </Suspense>
      );
    default:
      return (
        <section className="placeholder" aria-label="Settings">
          <h2>Settings</h2>
          <p>Settings are not available in the web app yet.</p>
        </section>
      );
  }
}
