import { useSyncExternalStore } from 'react';
import { parseHash, type Route } from '../narrow/hash';

/** The current view comes from the URL's hash, as in Zulip: links and the back button both work. */
function subscribe(onChange: () => void): () => void {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
}

const currentHash = () => window.location.hash;

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
