import { useSyncExternalStore } from 'react';
import { parseHash, type Route } from '../narrow/hash';
import { getApp, useApp } from '../state/store';

/** The hash of the user's home view (`web_home_view`): the view of an empty hash, where the logo leads. */
export function homeHash(settings: Record<string, unknown> = getApp().settings): string {
  const home = settings.web_home_view;
  // "recent_topics" until feature level 454.
  if (home === 'recent' || home === 'recent_topics') return '#recent';
  if (home === 'all_messages') return '#feed';
  return '#inbox';
}

/** Whether the hash shows the home view: empty, or the home view's own. */
export function isHomeHash(hash: string): boolean {
  return hash === '' || hash === '#' || routeKey(hash) === routeKey(homeHash());
}

const routeKey = (hash: string) => JSON.stringify(parseHash(hash));

/** The current view comes from the URL's hash, as in Zulip: links and the back button both work. */
function subscribe(onChange: () => void): () => void {
  window.addEventListener('hashchange', onChange);
  // An empty hash follows the home view setting, which may change from another tab.
  const unsubscribe = useApp.subscribe((state, previous) => {
    if (state.settings.web_home_view !== previous.settings.web_home_view) onChange();
  });
  return () => {
    window.removeEventListener('hashchange', onChange);
    unsubscribe();
  };
}

const currentHash = () => {
  const hash = window.location.hash;
  return hash === '' || hash === '#' ? homeHash() : hash;
};

let cached: { hash: string; route: Route } | null = null;
export function currentRoute(): Route {
  const hash = currentHash();
  if (cached?.hash !== hash) cached = { hash, route: parseHash(hash) };
  return cached.route;
}

export function useRoute(): Route {
  useSyncExternalStore(subscribe, currentHash);
  return currentRoute();
}

export function navigate(hash: string): void {
  if (window.location.hash !== hash) window.location.hash = hash;
}
