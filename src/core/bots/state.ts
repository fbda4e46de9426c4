import type { StateSlice } from '../register/slice';
import { realmBotsFor } from './queries';
import type { BotDict } from './view';

/** realm_bots: the bots the requester administers, kept up to date by `realm_bot` events. */
export const realmBotsSlice: StateSlice = {
  fetchTypes: ['realm_bot'],
  async fetch(deps, me) {
    return { realm_bots: await realmBotsFor(deps, me) };
  },
  apply(state, event) {
    if (event.type !== 'realm_bot') return;
    const bots = state.realm_bots as BotDict[];
    const bot = event.bot as Partial<BotDict> & { user_id: number };
    if (event.op === 'add') {
      if (!bots.some((b) => b.user_id === bot.user_id)) bots.push(bot as BotDict);
    } else if (event.op === 'delete' || event.op === 'remove') {
      state.realm_bots = bots.filter((b) => b.user_id !== bot.user_id);
    } else if (event.op === 'update') {
      const target = bots.find((b) => b.user_id === bot.user_id);
      if (target) Object.assign(target, bot);
    }
  },
};
