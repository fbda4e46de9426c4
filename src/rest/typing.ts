import { sendChannelTyping, sendDirectTyping } from '../core/typing/actions';
import { errors } from '../errors';
import { endpoint, p } from './endpoint';
import type { Route } from './router';

export const typingRoutes: Route[] = [
  {
    method: 'POST',
    path: '/typing',
    endpoint: endpoint({
      params: {
        type: p.enum(['direct', 'stream', 'channel'] as const).default('direct'),
        op: p.enum(['start', 'stop'] as const),
        to: p.intList().optional(),
        stream_id: p.int().optional(),
        topic: p.string().optional(),
      },
      handler: async ({ deps, user, params }) => {
        if (params.type === 'direct') {
          if (params.to === undefined) throw errors.badRequest("Missing 'to' argument");
          await sendDirectTyping(deps, user, params.to, params.op);
          return;
        }
        if (params.stream_id === undefined) throw errors.badRequest("Missing 'stream_id' argument");
        if (params.topic === undefined) throw errors.badRequest('Missing topic');
        await sendChannelTyping(deps, user, params.stream_id, params.topic, params.op);
      },
    }),
  },
];
