import type { StateSlice } from '../register/slice';
import { LegacyClientPresence, legacyFromClient, ModernPresence } from './format';
import { realmPresence } from './queries';

/**
 * `presences`, `presence_last_update_id` and `server_timestamp` (fetch type "presence"), in the
 * modern format with slim_presence and the legacy one otherwise, reaching back
 * presence_history_limit_days.
 */
export const presenceSlice: StateSlice = {
  fetchTypes: ['presence'],
  async fetch(deps, me, options) {
    const serverTimestamp = Date.now() / 1000;
    const snapshot = await realmPresence(deps, me, {
      slim: options.slimPresence,
      historyLimitDays: options.presenceHistoryLimitDays,
    });
    return { ...snapshot, server_timestamp: serverTimestamp };
  },
  apply(state, event, _me, options) {
    if (event.type !== 'presence' || !state.presences) return;
    const presences = state.presences as Record<string, unknown>;
    const userId = event.user_id as number | undefined;
    const modern = event.presences as Record<string, ModernPresence> | undefined;
    if (options.slimPresence) {
      for (const [id, entry] of Object.entries(modern ?? {})) presences[id] = { ...entry };
      return;
    }
    const website = (event.presence as { website?: LegacyClientPresence } | undefined)?.website;
    if (userId !== undefined && typeof event.email === 'string' && website) presences[event.email] = legacyFromClient({ ...website });
  },
};
