import { INTEGRATIONS } from '../core/webhooks/registry';
import { deliverWebhookMessages } from '../core/webhooks/deliver';
import type { Json } from '../core/webhooks/payload';
import { authenticateKeyOnly } from '../core/users/authenticate';
import type { User } from '../core/users/model';
import type { AppDeps } from '../core/deps';
import { errors } from '../errors';
import { authenticateRequest } from '../core/users/request-auth';
import type { ApiRequest } from './body';
import { endpoint, p } from './endpoint';
import type { Route } from './router';

/**
 * POST /api/v1/external/{integration}: third-party services post their own JSON, authenticated by
 * the `api_key` URL parameter (or HTTP Basic), and the integration turns it into messages.
 */
async function webhookAccount(deps: AppDeps, req: ApiRequest, apiKey: string | undefined): Promise<User> {
  if (apiKey !== undefined) return authenticateKeyOnly(deps, apiKey);
  if (req.headers.authorization) return authenticateRequest(deps, req.headers.authorization);
  throw errors.missing('api_key');
}

function documentOf(req: ApiRequest, formPayload: string | undefined): Json | undefined {
  const isForm = (req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
  const text = !isForm && req.rawBody && req.rawBody.length > 0 ? req.rawBody.toString('utf8') : formPayload;
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as Json;
  } catch {
    throw errors.badRequest('Malformed JSON');
  }
}

export const webhookRoutes: Route[] = [
  {
    method: 'POST',
    path: '/external/:integration',
    endpoint: endpoint({
      auth: 'none',
      rawBody: true,
      params: {
        integration: p.path.string(),
        api_key: p.string().optional(),
        stream: p.string().optional(),
        topic: p.string().optional(),
        only_events: p.string().optional(),
        exclude_events: p.string().optional(),
        branches: p.string().optional(),
        ignore_private_repositories: p.string().optional(),
        payload: p.string().optional(),
      },
      handler: async ({ deps, req, params }) => {
        const integration = INTEGRATIONS.get(params.integration);
        if (!integration) throw errors.notFound();
        const bot = await webhookAccount(deps, req, params.api_key);
        const payload = documentOf(req, params.payload);
        if (payload === undefined && integration.name !== 'slack_incoming') throw errors.badRequest('Malformed JSON');
        const urlParams: Record<string, string> = {};
        for (const [key, value] of Object.entries(params)) if (typeof value === 'string') urlParams[key] = value;
        const messages = integration.handle({ payload, headers: req.headers, params: urlParams, includeTitle: params.topic !== undefined });
        await deliverWebhookMessages(deps, bot, integration, messages, params);
      },
    }),
  },
];
