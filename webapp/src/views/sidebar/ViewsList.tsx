import { homeHash, useRoute } from '../../app/route';
import { cachedUnreadCounts } from '../../app/unread-counts';
import { routeHash } from '../../narrow/hash';
import { lookup } from '../../app/lookup';
import { useApp } from '../../state/store';
import { starredCount } from './starred';

/** Inbox, the combined feed, mentions, starred messages and drafts, with their counts. */
export function ViewsList() {
  const route = useRoute();
  const counts = useApp(cachedUnreadCounts);
  // Zulip's starred_message_counts: the starred count shows only if the user wants it.
  const starred = useApp((s) => (s.settings.starred_message_counts === false ? 0 : starredCount(s)));
  const home = homeHash(useApp((s) => s.settings));
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
  // As in Zulip, the home view comes first.
  views.sort((a, b) => Number(b.href === home) - Number(a.href === home));
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
