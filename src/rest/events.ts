import { errors } from '../errors';
import { narrowValidator } from '../realtime/narrow';
import { createQueue, realtimeOf, register, RegisterRequest } from '../core/register/register';
import { spectatorRegister } from '../core/realm/spectators';
import { CAPABILITY_NAMES, ClientCapabilities } from '../realtime/capabilities';
import { ANSWERED_LATER, endpoint, p } from './endpoint';
import { idleQueueTimeout } from './idle-queue-timeout';
import { includeSubscribers } from './include-subscribers';
import type { Route } from './router';
import { v, Validator } from '../validation/validate';

/**
 * client_capabilities: a dict of booleans. notification_settings_null is required (as in Zulip,
 * where it was the first and only key); unknown keys are ignored so newer clients keep working.
 */
const capabilitiesValidator: Validator<Partial<ClientCapabilities>> = (value, name) => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw errors.badRequest(`${name} is not a dict`);
  const input = value as Record<string, unknown>;
  if (!('notification_settings_null' in input)) throw errors.badRequest(`notification_settings_null key is missing from ${name}`);
  const out: Partial<ClientCapabilities> = {};
  for (const [key, flag] of Object.entries(input)) {
    if (typeof flag !== 'boolean') {
      if (CAPABILITY_NAMES.includes(key as keyof ClientCapabilities)) throw errors.badRequest(`${name}["${key}"] is not a boolean`);
      throw errors.badRequest(`${name} contains a value that is not a boolean`);
    }
    if (CAPABILITY_NAMES.includes(key as keyof ClientCapabilities)) out[key as keyof ClientCapabilities] = flag;
  }
  return out;
};

const stringList = () => p.json(v.list(v.string()));

/** Parameters shared by POST /register and queue creation through GET /events. */
const queueParams = {
  apply_markdown: p.bool().default(false),
  slim_presence: p.bool().default(false),
  all_public_streams: p.bool().optional(),
  event_types: stringList().optional(),
  narrow: p.json(narrowValidator).default([]),
};

export const eventRoutes: Route[] = [
  {
    method: 'POST',
    path: '/register',
    endpoint: endpoint({
      auth: 'optional',
      params: {
        ...queueParams,
        // Defaults to true for accounts and false for spectators.
        client_gravatar: p.bool().optional(),
        include_subscribers: includeSubscribers().default(false),
        presence_history_limit_days: p.int().optional(),
        presence_last_update_id: p.int().optional(),
        fetch_event_types: stringList().optional(),
        client_capabilities: p.json(capabilitiesValidator).optional(),
        queue_lifespan_secs: p.int({ min: 0 }).default(0),
        idle_queue_timeout: idleQueueTimeout().optional(),
      },
      handler: async ({ deps, user, params }) => {
        if (!user) {
          return spectatorRegister(deps, {
            clientGravatar: params.client_gravatar,
            includeSubscribers: params.include_subscribers,
            fetchEventTypes: params.fetch_event_types ?? params.event_types,
          });
        }
        const request: RegisterRequest = {
          applyMarkdown: params.apply_markdown,
          clientGravatar: params.client_gravatar ?? true,
          includeSubscribers: params.include_subscribers,
          slimPresence: params.slim_presence,
          presenceHistoryLimitDays: params.presence_history_limit_days,
          presenceLastUpdateId: params.presence_last_update_id,
          eventTypes: params.event_types,
          fetchEventTypes: params.fetch_event_types,
          allPublicStreams: params.all_public_streams,
          narrow: params.narrow,
          capabilities: params.client_capabilities,
          queueLifespanSecs: params.queue_lifespan_secs,
          idleQueueTimeout: params.idle_queue_timeout,
        };
        return register(deps, user, request);
      },
    }),
  },
  {
    method: 'GET',
    path: '/events',
    endpoint: endpoint({
      params: {
        queue_id: p.string().optional(),
        last_event_id: p.int().optional(),
        dont_block: p.bool().default(false),
        // Without queue_id (and with dont_block) a queue is created from these, as Zulip allows.
        ...queueParams,
        client_gravatar: p.bool().default(false),
        lifespan_secs: p.int({ min: 0 }).default(0),
        bulk_message_deletion: p.bool().default(false),
        stream_typing_notifications: p.bool().default(false),
        user_settings_object: p.bool().default(false),
      },
      handler: async ({ deps, user, params, res, later }) => {
        const queues = realtimeOf(deps);
        let queueId = params.queue_id;
        let lastEventId = params.last_event_id;
        let created = false;
        if (queueId === undefined) {
          if (!params.dont_block) throw errors.badRequest("Missing 'queue_id' argument");
          const descriptor = await createQueue(deps, user, {
            applyMarkdown: params.apply_markdown,
            clientGravatar: params.client_gravatar,
            includeSubscribers: false,
            slimPresence: params.slim_presence,
            eventTypes: params.event_types,
            allPublicStreams: params.all_public_streams,
            narrow: params.narrow,
            capabilities: {
              bulk_message_deletion: params.bulk_message_deletion,
              stream_typing_notifications: params.stream_typing_notifications,
              user_settings_object: params.user_settings_object,
            },
            queueLifespanSecs: params.lifespan_secs,
          });
          queueId = descriptor.id;
          lastEventId = -1;
          created = true;
        } else if (lastEventId === undefined) {
          throw errors.badRequest("Missing 'last_event_id' argument");
        }
        const events = await queues.poll(deps.realmId, user.id, queueId, lastEventId!, params.dont_block, (cancel) => {
          // The client gave up on this long-poll: stop waiting for it.
          res.on('close', () => {
            if (!res.writableFinished) cancel();
          });
          const answer = later();
          return (error, events) => answer(error, created ? { events, queue_id: queueId } : { events });
        });
        if (events === null) return ANSWERED_LATER;
        return created ? { events, queue_id: queueId } : { events };
      },
    }),
  },
  {
    method: 'DELETE',
    path: '/events',
    endpoint: endpoint({
      params: { queue_id: p.string() },
      handler: async ({ deps, user, params }) => {
        await realtimeOf(deps).deleteQueue(deps.realmId, user.id, params.queue_id);
      },
    }),
  },
];
