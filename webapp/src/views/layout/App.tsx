import { useRoute } from '../../app/route';
import { useApp } from '../../state/store';
import { ConnectionBanner } from './ConnectionBanner';
import { LeftSidebar } from '../sidebar/LeftSidebar';
import { NarrowView } from '../feed/NarrowView';

/** The page: the conversations on the left, the open view in the middle. */
export function App() {
  const ready = useApp((s) => s.ready);
  const route = useRoute();
  if (!ready) return <p className="boot">Loading…</p>;
  return (
    <div className="app">
      <ConnectionBanner />
      <LeftSidebar />
      <main className="main" id="main">
        {route.view === 'narrow' ? <NarrowView narrow={route.narrow} near={route.near} /> : <p className="placeholder">{route.view}</p>}
      </main>
    </div>
  );
}
