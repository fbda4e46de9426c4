import type { StateSlice } from '../register/slice';
import { listNavigationViews } from './queries';
import type { NavigationViewDict } from './view';

/** `navigation_views`: the user's pinned and hidden views. */
export const navigationViewsSlice: StateSlice = {
  fetchTypes: ['navigation_views'],
  async fetch(deps, user) {
    return { navigation_views: await listNavigationViews(deps.knex, user) };
  },
  apply(state, event) {
    if (event.type !== 'navigation_view') return;
    const views = state.navigation_views as NavigationViewDict[];
    if (event.op === 'add') {
      const view = event.navigation_view as NavigationViewDict;
      if (!views.some((v) => v.fragment === view.fragment)) views.push(view);
    } else if (event.op === 'update') {
      const view = views.find((v) => v.fragment === event.fragment);
      if (view) Object.assign(view, event.data);
    } else if (event.op === 'remove') {
      state.navigation_views = views.filter((v) => v.fragment !== event.fragment);
    }
  },
};
