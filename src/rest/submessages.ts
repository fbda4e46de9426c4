import { addSubmessage } from '../core/submessages/actions';
import { endpoint, p } from './endpoint';
import type { Route } from './router';

export const submessageRoutes: Route[] = [
  {
    method: 'POST',
    path: '/submessage',
    endpoint: endpoint({
      params: {
        message_id: p.int(),
        msg_type: p.string(),
        content: p.string(),
      },
      handler: async ({ deps, user, params }) => {
        await addSubmessage(deps, user, { messageId: params.message_id, msgType: params.msg_type, content: params.content });
      },
    }),
  },
];
