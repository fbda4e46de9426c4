import { reportMessage } from '../core/message-reports/actions';
import { MAX_REPORT_DESCRIPTION_LENGTH, REPORT_TYPES } from '../core/message-reports/reasons';
import { endpoint, p } from './endpoint';
import type { Route } from './router';

export const messageReportRoutes: Route[] = [
  {
    method: 'POST',
    path: '/messages/:message_id/report',
    endpoint: endpoint({
      params: {
        message_id: p.path.int(),
        report_type: p.enum(REPORT_TYPES),
        description: p.string({ maxLength: MAX_REPORT_DESCRIPTION_LENGTH }).default(''),
      },
      handler: async ({ deps, user, params }) => {
        await reportMessage(deps, user, params.message_id, { reportType: params.report_type, description: params.description });
      },
    }),
  },
];
