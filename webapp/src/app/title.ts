import { describeRoute } from './describe';
import { currentRoute } from './route';
import { getApp, useApp } from '../state/store';
import { cachedUnreadCounts } from './unread-counts';

/** The tab's title, as Zulip writes it: `(N) #channel > topic - Organization`, N unread (muted left out). */
export function pageTitle(): string {
  const state = getApp();
  const total = cachedUnreadCounts(state).total;
  const org = String(state.register.realm_name ?? 'Parley');
  const view = state.ready ? describeRoute(currentRoute(), state).title : '';
  return `${total > 0 ? `(${total}) ` : ''}${view ? `${view} - ` : ''}${org}`;
}

function update(): void {
  const title = pageTitle();
  if (document.title !== title) document.title = title;
}

let started = false;
export function startTitle(): void {
  if (started) return;
  started = true;
  update();
  useApp.subscribe(update);
  window.addEventListener('hashchange', update);
}
