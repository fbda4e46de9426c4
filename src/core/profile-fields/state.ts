import type { StateSlice } from '../register/slice';
import { FIELD_TYPE_DESCRIPTIONS } from './field-types';
import { listFieldDicts } from './queries';

/** custom_profile_fields and custom_profile_field_types. Users' values travel in realm_users. */
export const customProfileFieldsSlice: StateSlice = {
  fetchTypes: ['custom_profile_fields'],
  async fetch(deps) {
    return {
      custom_profile_fields: await listFieldDicts(deps.knex, deps.realmId),
      custom_profile_field_types: Object.fromEntries(FIELD_TYPE_DESCRIPTIONS.map((t) => [t.keyword, { id: t.id, name: t.name }])),
    };
  },
  apply(state, event) {
    // Each event carries the complete list, so replacing is idempotent.
    if (event.type === 'custom_profile_fields' && Array.isArray(event.fields)) state.custom_profile_fields = structuredClone(event.fields);
  },
};
