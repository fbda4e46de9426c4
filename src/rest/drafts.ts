import { createDrafts, deleteDraft, editDraft } from '../core/drafts/actions';
import { listDrafts } from '../core/drafts/queries';
import { parseDraft, parseDraftList } from '../core/drafts/validation';
import { endpoint, p } from './endpoint';
import type { Route } from './router';

export const draftRoutes: Route[] = [
  {
    method: 'GET',
    path: '/drafts',
    endpoint: endpoint({
      params: {},
      handler: async ({ deps, user }) => {
        const drafts = await listDrafts(deps, user);
        return { count: drafts.length, drafts };
      },
    }),
  },
  {
    method: 'POST',
    path: '/drafts',
    endpoint: endpoint({
      params: { drafts: p.json(parseDraftList).default([]) },
      handler: async ({ deps, user, params }) => ({ ids: await createDrafts(deps, user, params.drafts) }),
    }),
  },
  {
    method: 'PATCH',
    path: '/drafts/:draft_id',
    endpoint: endpoint({
      params: { draft_id: p.path.int(), draft: p.json(parseDraft) },
      handler: async ({ deps, user, params }) => {
        await editDraft(deps, user, params.draft_id, params.draft);
      },
    }),
  },
  {
    method: 'DELETE',
    path: '/drafts/:draft_id',
    endpoint: endpoint({
      params: { draft_id: p.path.int() },
      handler: async ({ deps, user, params }) => {
        await deleteDraft(deps, user, params.draft_id);
      },
    }),
  },
];
