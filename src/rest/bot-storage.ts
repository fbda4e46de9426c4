import { removeBotStorage, updateBotStorage } from '../core/bot-storage/actions';
import { getBotStorage } from '../core/bot-storage/queries';
import { parseKeys, parseStorage } from '../core/bot-storage/validation';
import { endpoint, p } from './endpoint';
import type { Route } from './router';

// Any account may keep a storage of its own (as before Zulip's feature level 494 kept it to bots).
export const botStorageRoutes: Route[] = [
  {
    method: 'GET',
    path: '/bot_storage',
    endpoint: endpoint({
      params: { keys: p.json(parseKeys).optional() },
      handler: async ({ deps, user, params }) => ({ storage: Object.fromEntries(await getBotStorage(deps, user, params.keys)) }),
    }),
  },
  {
    method: 'PUT',
    path: '/bot_storage',
    endpoint: endpoint({
      params: { storage: p.json(parseStorage) },
      handler: async ({ deps, user, params }) => {
        await updateBotStorage(deps, user, params.storage);
      },
    }),
  },
  {
    method: 'DELETE',
    path: '/bot_storage',
    endpoint: endpoint({
      params: { keys: p.json(parseKeys).optional() },
      handler: async ({ deps, user, params }) => {
        await removeBotStorage(deps, user, params.keys);
      },
    }),
  },
];
