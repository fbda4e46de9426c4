import { useRoute } from '../../app/route';
import { cachedUnreadCounts } from '../../app/unread-counts';
import { routeHash } from '../../narrow/hash';
import { lookup } from '../../app/lookup';
import { useApp } from '../../state/store';
import { starredCount } from './starred';

/** Inbox, the combined feed, mentions, starred messages and drafts, with their counts. */
export function ViewsList() {
  const route = useRoute();
  const counts = useApp(cachedUnreadCounts);
  const starred = useApp(starredCount);
  const drafts = useApp((s) => s.drafts.size);
  const current = routeHash(route, lookup);
  const views = [
    { href: '#inbox', label: 'Inbox', count: counts.total },
    { href: '#recent', label: 'Recent conversations', count: 0 },
    { href: '#feed', label: 'Combined feed', count: 0 },
    { href: '#narrow/is/mentioned', label: 'Mentions', count: counts.mentions },
    { href: '#narrow/is/starred', label: 'Starred messages', count: starred, quiet: true },
    { href: '#drafts', label: 'Drafts', count: drafts, quiet: true },
  ];
  return (
    <ul className="views-list">
      {views.map((v) => (
        <li key={v.href}>
          <a href={v.href} aria-current={current === v.href ? 'page' : undefined}>
            <span className="name">{v.label}</span>
            {v.count > 0 ? <span className={v.quiet ? 'count quiet' : 'count'}>{v.count}</span> : null}
          </a>
        </li>
      ))}
    </ul>
  );
}
