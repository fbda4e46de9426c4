import type { StateSlice } from '../register/slice';

/**
 * Register data of Zulip features this server does not have (yet): each answers what a Zulip
 * server where the feature is unused answers, under the fetch type Zulip uses for it.
 */
const constant = (fetchType: string, values: Record<string, unknown>): StateSlice => ({
  fetchTypes: [fetchType],
  // A fresh copy each time: register responses are changed in place by events.
  fetch: async () => structuredClone(values),
});

export const unmodeledSlices: StateSlice[] = [
  constant('realm_embedded_bots', { realm_embedded_bots: [] }),
  // No default channel groups.
  constant('default_stream_groups', { realm_default_stream_groups: [] }),
  constant('onboarding_steps', { onboarding_steps: [], navigation_tour_video_url: null }),
  constant('giphy', { giphy_api_key: '' }),
  constant('realm_billing', { realm_billing: { has_pending_sponsorship_request: false } }),
];
