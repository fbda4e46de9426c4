import { createSavedSnippet, deleteSavedSnippet, editSavedSnippet } from '../core/saved-snippets/actions';
import { listSavedSnippets } from '../core/saved-snippets/queries';
import { endpoint, p } from './endpoint';
import type { Route } from './router';

export const savedSnippetRoutes: Route[] = [
  {
    method: 'GET',
    path: '/saved_snippets',
    endpoint: endpoint({
      params: {},
      handler: async ({ deps, user }) => ({ saved_snippets: await listSavedSnippets(deps.knex, user) }),
    }),
  },
  {
    method: 'POST',
    path: '/saved_snippets',
    endpoint: endpoint({
      params: { title: p.string(), content: p.string() },
      handler: async ({ deps, user, params }) => ({ saved_snippet_id: await createSavedSnippet(deps, user, params) }),
    }),
  },
  {
    method: 'PATCH',
    path: '/saved_snippets/:saved_snippet_id',
    endpoint: endpoint({
      params: { saved_snippet_id: p.path.int(), title: p.string().optional(), content: p.string().optional() },
      handler: async ({ deps, user, params }) => {
        await editSavedSnippet(deps, user, params.saved_snippet_id, { title: params.title, content: params.content });
      },
    }),
  },
  {
    method: 'DELETE',
    path: '/saved_snippets/:saved_snippet_id',
    endpoint: endpoint({
      params: { saved_snippet_id: p.path.int() },
      handler: async ({ deps, user, params }) => {
        await deleteSavedSnippet(deps, user, params.saved_snippet_id);
      },
    }),
  },
];
