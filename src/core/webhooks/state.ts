import type { StateSlice } from '../register/slice';
import { INTEGRATIONS } from './registry';

/** realm_incoming_webhook_bots: the integrations this server offers (constant). */
export const incomingWebhookBotsSlice: StateSlice = {
  fetchTypes: ['realm_incoming_webhook_bots'],
  async fetch() {
    return {
      realm_incoming_webhook_bots: [...INTEGRATIONS.values()].map((i) => ({
        name: i.name,
        display_name: i.displayName,
        all_event_types: i.allEventTypes === null ? null : [...i.allEventTypes],
        config_options: [],
        // Named `input_type` since level 485 (`validator` before).
        url_options: (i.urlOptions ?? []).map((o) => ({ key: o.key, label: o.label, input_type: o.inputType })),
      })),
    };
  },
};
