import type { NavigationView } from './model';

export interface NavigationViewDict {
  fragment: string;
  is_pinned: boolean;
  /** null for built-in views. */
  name: string | null;
}

export function navigationViewDict(view: NavigationView): NavigationViewDict {
  return { fragment: view.fragment, is_pinned: view.is_pinned, name: view.name };
}
