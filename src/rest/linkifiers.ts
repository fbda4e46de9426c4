import { addLinkifier, removeLinkifier, reorderLinkifiers, updateLinkifier } from '../core/linkifiers/actions';
import { listLinkifiers } from '../core/linkifiers/queries';
import { requireAdmin } from '../core/users/access';
import { v } from '../validation/validate';
import { endpoint, p } from './endpoint';
import type { Route } from './router';

/** What turns pasted URLs back into text (optional; an empty text clears it). */
const reverseParams = {
  example_input: p.string().optional(),
  reverse_template: p.string().optional(),
  alternative_url_templates: p.json(v.list(v.string())).optional(),
};

const reverseInput = (params: { example_input?: string; reverse_template?: string; alternative_url_templates?: string[] }) => ({
  exampleInput: params.example_input,
  reverseTemplate: params.reverse_template,
  alternativeUrlTemplates: params.alternative_url_templates,
});

export const linkifierRoutes: Route[] = [
  {
    method: 'GET',
    path: '/realm/linkifiers',
    endpoint: endpoint({
      params: {},
      handler: async ({ deps }) => ({ linkifiers: await listLinkifiers(deps.knex, deps.realmId) }),
    }),
  },
  {
    method: 'PATCH',
    path: '/realm/linkifiers',
    endpoint: endpoint({
      guard: ({ user }) => requireAdmin(user),
      params: { ordered_linkifier_ids: p.intList() },
      handler: async ({ deps, user, params }) => {
        await reorderLinkifiers(deps, user, params.ordered_linkifier_ids);
      },
    }),
  },
  {
    method: 'POST',
    path: '/realm/filters',
    endpoint: endpoint({
      guard: ({ user }) => requireAdmin(user),
      params: { pattern: p.string(), url_template: p.string(), ...reverseParams },
      handler: async ({ deps, user, params }) => ({
        id: await addLinkifier(deps, user, { pattern: params.pattern, urlTemplate: params.url_template, ...reverseInput(params) }),
      }),
    }),
  },
  {
    method: 'PATCH',
    path: '/realm/filters/:filter_id',
    endpoint: endpoint({
      guard: ({ user }) => requireAdmin(user),
      params: { filter_id: p.path.int(), pattern: p.string(), url_template: p.string(), ...reverseParams },
      handler: async ({ deps, user, params }) => {
        await updateLinkifier(deps, user, params.filter_id, { pattern: params.pattern, urlTemplate: params.url_template, ...reverseInput(params) });
      },
    }),
  },
  {
    method: 'DELETE',
    path: '/realm/filters/:filter_id',
    endpoint: endpoint({
      guard: ({ user }) => requireAdmin(user),
      params: { filter_id: p.path.int() },
      handler: async ({ deps, user, params }) => {
        await removeLinkifier(deps, user, params.filter_id);
      },
    }),
  },
];
