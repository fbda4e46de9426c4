import { addAlertWords, removeAlertWords } from '../core/alert-words/actions';
import { alertWordsOf } from '../core/alert-words/store';
import { MAX_ALERT_WORD_LENGTH } from '../core/alert-words/matching';
import { endpoint, p } from './endpoint';
import type { Route } from './router';
import { v } from '../validation/validate';

export const alertWordRoutes: Route[] = [
  {
    method: 'GET',
    path: '/users/me/alert_words',
    endpoint: endpoint({
      params: {},
      handler: async ({ deps, user }) => ({ alert_words: await alertWordsOf(deps.knex, user.id) }),
    }),
  },
  {
    method: 'POST',
    path: '/users/me/alert_words',
    endpoint: endpoint({
      params: { alert_words: p.json(v.list(v.string({ maxLength: MAX_ALERT_WORD_LENGTH }))) },
      handler: async ({ deps, user, params }) => ({ alert_words: await addAlertWords(deps, user, params.alert_words) }),
    }),
  },
  {
    method: 'DELETE',
    path: '/users/me/alert_words',
    endpoint: endpoint({
      params: { alert_words: p.json(v.list(v.string())) },
      handler: async ({ deps, user, params }) => ({ alert_words: await removeAlertWords(deps, user, params.alert_words) }),
    }),
  },
];
