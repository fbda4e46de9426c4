import { renderMessagePreview } from '../core/markdown';
import { endpoint, p } from './endpoint';
import type { Route } from './router';

export const markdownRoutes: Route[] = [
  {
    method: 'POST',
    path: '/messages/render',
    endpoint: endpoint({
      params: { content: p.string() },
      handler: async ({ deps, user, params }) => ({ rendered: await renderMessagePreview(deps, user, params.content) }),
    }),
  },
];
