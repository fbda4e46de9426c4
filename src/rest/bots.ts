import { createBot, DEFAULT_BOT_INTERFACE, deactivateBot, getBotApiKey, regenerateBotApiKey, updateBot } from '../core/bots/actions';
import { BotType } from '../core/bots/constants';
import { listOwnBots } from '../core/bots/queries';
import { endpoint, p } from './endpoint';
import type { Route } from './router';
import { checkServiceUrl } from '../core/bots/validation';

export const botRoutes: Route[] = [
  {
    method: 'GET',
    path: '/bots',
    endpoint: endpoint({
      params: {},
      handler: async ({ deps, user }) => ({ bots: await listOwnBots(deps, user) }),
    }),
  },
  {
    method: 'POST',
    path: '/bots',
    endpoint: endpoint({
      params: {
        full_name: p.string(),
        short_name: p.string(),
        bot_type: p.int().default(BotType.GENERIC),
        payload_url: p.json(checkServiceUrl).default(''),
        service_name: p.string().optional(),
        config_data: p.json((value) => value).optional(),
        interface_type: p.int().default(DEFAULT_BOT_INTERFACE),
        default_sending_stream: p.string().optional(),
        default_events_register_stream: p.string().optional(),
        default_all_public_streams: p.bool().optional(),
      },
      handler: async ({ deps, user, params }) =>
        createBot(deps, user, {
          fullName: params.full_name,
          shortName: params.short_name,
          botType: params.bot_type,
          payloadUrl: params.payload_url,
          serviceName: params.service_name,
          interfaceType: params.interface_type,
          defaultSendingStream: params.default_sending_stream,
          defaultEventsRegisterStream: params.default_events_register_stream,
          defaultAllPublicStreams: params.default_all_public_streams,
        }),
    }),
  },
  {
    method: 'PATCH',
    path: '/bots/:bot_id',
    endpoint: endpoint({
      params: {
        bot_id: p.path.int(),
        full_name: p.string().optional(),
        short_name: p.string().optional(),
        role: p.int().optional(),
        bot_owner_id: p.int().optional(),
        config_data: p.json((value) => value).optional(),
        service_payload_url: p.json(checkServiceUrl).optional(),
        service_interface: p.int().default(DEFAULT_BOT_INTERFACE),
        default_sending_stream: p.string().optional(),
        default_events_register_stream: p.string().optional(),
        default_all_public_streams: p.bool().optional(),
      },
      handler: async ({ deps, user, params }) =>
        updateBot(deps, user, params.bot_id, {
          fullName: params.full_name,
          shortName: params.short_name,
          role: params.role,
          botOwnerId: params.bot_owner_id,
          servicePayloadUrl: params.service_payload_url,
          serviceInterface: params.service_interface,
          defaultSendingStream: params.default_sending_stream,
          defaultEventsRegisterStream: params.default_events_register_stream,
          defaultAllPublicStreams: params.default_all_public_streams,
        }),
    }),
  },
  {
    method: 'DELETE',
    path: '/bots/:bot_id',
    endpoint: endpoint({
      params: { bot_id: p.path.int() },
      handler: async ({ deps, user, params }) => {
        await deactivateBot(deps, user, params.bot_id);
      },
    }),
  },
  {
    method: 'GET',
    path: '/bots/:bot_id/api_key',
    endpoint: endpoint({
      params: { bot_id: p.path.int() },
      handler: async ({ deps, user, params }) => ({ api_key: await getBotApiKey(deps, user, params.bot_id) }),
    }),
  },
  {
    method: 'POST',
    path: '/bots/:bot_id/api_key/regenerate',
    endpoint: endpoint({
      params: { bot_id: p.path.int() },
      handler: async ({ deps, user, params }) => ({ api_key: await regenerateBotApiKey(deps, user, params.bot_id) }),
    }),
  },
];
