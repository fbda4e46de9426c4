import { channelLinkResolver } from '../core/channels/links';
import { renderMessagePreview } from '../core/markdown';
import { endpoint, p } from './endpoint';
import type { Route } from './router';

export const markdownRoutes: Route[] = [
  {
    method: 'POST',
    path: '/messages/render',
    endpoint: endpoint({
      params: { content: p.string() },
      // Channel links resolve to the channels the author can see.
      handler: async ({ deps, user, params }) => ({
        rendered: await renderMessagePreview(deps, user, params.content, { resolveChannels: channelLinkResolver(deps.knex, user) }),
      }),
    }),
  },
];
