import type { StateSlice } from '../register/slice';
import { realmStatuses, USER_STATUS_EVENT, UserStatusDict } from './store';

type Statuses = Record<string, UserStatusDict & Record<string, unknown>>;

/** Sets `key` from the event, or removes it when the event clears it (''). */
function setOrClear(entry: Record<string, unknown>, key: string, value: unknown): void {
  if (value === undefined) return;
  if (value === '') delete entry[key];
  else entry[key] = value;
}

/** `user_status`: the statuses that show anything, by user id (Zulip's apply_event for user_status). */
export const userStatusSlice: StateSlice = {
  fetchTypes: ['user_status'],
  async fetch(deps) {
    return { user_status: await realmStatuses(deps.knex, deps.realmId) };
  },
  apply(state, event) {
    if (event.type !== USER_STATUS_EVENT) return;
    const statuses = state.user_status as Statuses;
    const key = String(event.user_id);
    const entry: Record<string, unknown> = statuses[key] ?? {};
    if (event.away === true) entry.away = true;
    else if (event.away === false) delete entry.away;
    setOrClear(entry, 'status_text', event.status_text);
    if (event.emoji_name !== undefined) {
      setOrClear(entry, 'emoji_name', event.emoji_name);
      setOrClear(entry, 'emoji_code', event.emoji_code);
      if (event.emoji_name === '') delete entry.reaction_type;
      else if (event.reaction_type !== undefined) entry.reaction_type = event.reaction_type;
    }
    if (Object.keys(entry).length === 0) delete statuses[key];
    else statuses[key] = entry;
  },
};
