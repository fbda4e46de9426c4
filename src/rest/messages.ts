import type { IncomingMessage } from 'node:http';
import { parseAddressee, MESSAGE_TYPES } from '../core/messages/addressee';
import { getMessages, getMessagesByIds, getSingleMessage, LARGER_THAN_MAX_MESSAGE_ID, parseAnchor } from '../core/messages/fetch';
import { parseFetchAnchor } from '../core/messages/anchor-date';
import { checkSpectatorNarrow, spectatorReader } from '../core/realm/spectators';
import { NarrowTerm, parseNarrow } from '../core/messages/narrow-parse';
import { sendMessage } from '../core/messages/send';
import { messagesMatchingNarrow } from '../core/messages/matches-narrow';
import { readReceipts } from '../core/messages/read-receipts';
import { sendEditMessageTyping } from '../core/messages/edit-typing';
import { deleteTopic } from '../core/messages/delete-topic';
import { requireAdmin } from '../core/users/access';
import { deleteMessage } from '../core/messages/delete';
import { editMessage } from '../core/messages/edit';
import { PROPAGATE_MODES } from '../core/messages/propagate-mode';
import { getMessageHistory } from '../core/messages/history';
import { markAllAsRead, markChannelAsRead, markTopicAsRead, updateMessageFlags, updateMessageFlagsForNarrow } from '../core/messages/flag-actions';
import { errors } from '../errors';
import { endpoint, p } from './endpoint';
import type { Route } from './router';
import { v } from '../validation/validate';

/**
 * The sending client's name, as Zulip derives it: a `client` parameter, else the product name
 * at the start of the User-Agent ("ZulipMobile/27.1 (Android 14)" → "ZulipMobile").
 */
export function clientName(req: IncomingMessage, explicit?: string): string {
  if (explicit) return explicit;
  const agent = req.headers['user-agent'];
  if (!agent) return 'Unspecified';
  const match = /^([^/ ]*[^0-9/(]*)/.exec(agent);
  const name = match?.[1]?.trim();
  return name ? name : 'Unspecified';
}

export const narrowParam = () => p.json<NarrowTerm[]>((value, name) => parseNarrow(value, name));

export const messageRoutes: Route[] = [
  {
    method: 'POST',
    path: '/messages',
    endpoint: endpoint({
      allowIncomingWebhooks: true,
      params: {
        type: p.enum(MESSAGE_TYPES),
        to: p.string({ allowNul: true }).optional(),
        topic: p.string({ allowNul: true }).optional().alias('subject'),
        content: p.string({ allowNul: true }),
        local_id: p.string().optional(),
        queue_id: p.string().optional(),
        read_by_sender: p.bool().optional(),
        client: p.string().optional(),
      },
      handler: async ({ deps, user, params, req }) => ({
        ...(await sendMessage(deps, user, {
          addressee: parseAddressee(params.type, params.to),
          topic: params.topic ?? null,
          content: params.content,
          client: clientName(req, params.client),
          localId: params.local_id,
          queueId: params.queue_id,
          readBySender: params.read_by_sender,
        })),
      }),
    }),
  },
  {
    method: 'GET',
    path: '/messages',
    endpoint: endpoint({
      auth: 'optional',
      params: {
        anchor: p.string().optional(),
        anchor_date: p.string().optional(),
        include_anchor: p.bool().default(true),
        num_before: p.int({ min: 0 }).optional(),
        num_after: p.int({ min: 0 }).optional(),
        narrow: narrowParam().default([]),
        // Defaults to true for accounts and false for spectators.
        client_gravatar: p.bool().optional(),
        apply_markdown: p.bool().default(true),
        use_first_unread_anchor: p.bool().default(false),
        allow_empty_topic_name: p.bool().default(false),
        message_ids: p.json(v.list(v.int())).optional(),
      },
      handler: async ({ deps, user: account, params, req }) => {
        const view = {
          applyMarkdown: params.apply_markdown,
          clientGravatar: params.client_gravatar ?? account !== null,
          allowEmptyTopicName: params.allow_empty_topic_name,
        };
        if (!account) {
          if (params.message_ids !== undefined) throw errors.unauthorized();
          await checkSpectatorNarrow(deps, params.narrow);
        }
        const user = account ?? spectatorReader(deps);
        if (params.message_ids !== undefined) {
          const sent = ['anchor', 'include_anchor', 'use_first_unread_anchor', 'num_before', 'num_after'].filter(
            (name) => new URL(req.url ?? '/', 'http://parley').searchParams.has(name) || req.body?.[name] !== undefined,
          );
          if (sent.length > 0) {
            throw errors.badRequest(`Unsupported parameter combination: ${['message_ids', ...sent].join(', ')}`, {
              parameters: ['message_ids', ...sent].join(', '),
            });
          }
          return getMessagesByIds(deps, user, params.message_ids, params.narrow, view);
        }
        if (params.num_before === undefined) throw errors.missing('num_before');
        if (params.num_after === undefined) throw errors.missing('num_after');
        const anchor = parseFetchAnchor(params.anchor, params.use_first_unread_anchor, params.anchor_date);
        return getMessages(deps, user, {
          // Spectators have nothing unread: their first unread message is the newest.
          anchor: account ? anchor : (anchor ?? LARGER_THAN_MAX_MESSAGE_ID),
          includeAnchor: params.include_anchor,
          numBefore: params.num_before,
          numAfter: params.num_after,
          narrow: params.narrow,
          ...view,
        });
      },
    }),
  },
  {
    method: 'POST',
    path: '/messages/flags',
    endpoint: endpoint({
      params: { messages: p.json(v.list(v.int())), op: p.string(), flag: p.string() },
      handler: async ({ deps, user, params }) => updateMessageFlags(deps, user, params.op, params.flag, params.messages),
    }),
  },
  {
    method: 'POST',
    path: '/messages/flags/narrow',
    endpoint: endpoint({
      params: {
        anchor: p.string(),
        include_anchor: p.bool().default(true),
        num_before: p.int({ min: 0 }),
        num_after: p.int({ min: 0 }),
        narrow: narrowParam(),
        op: p.string(),
        flag: p.string(),
      },
      handler: async ({ deps, user, params }) =>
        updateMessageFlagsForNarrow(deps, user, {
          anchor: parseAnchor(params.anchor, false),
          includeAnchor: params.include_anchor,
          numBefore: params.num_before,
          numAfter: params.num_after,
          narrow: params.narrow,
          op: params.op,
          flag: params.flag,
        }),
    }),
  },
  {
    method: 'POST',
    path: '/mark_all_as_read',
    endpoint: endpoint({ params: {}, handler: async ({ deps, user }) => markAllAsRead(deps, user) }),
  },
  {
    method: 'POST',
    path: '/mark_stream_as_read',
    endpoint: endpoint({
      params: { stream_id: p.int() },
      handler: async ({ deps, user, params }) => {
        await markChannelAsRead(deps, user, params.stream_id);
      },
    }),
  },
  {
    method: 'POST',
    path: '/mark_topic_as_read',
    endpoint: endpoint({
      params: { stream_id: p.int(), topic_name: p.string() },
      handler: async ({ deps, user, params }) => {
        await markTopicAsRead(deps, user, params.stream_id, params.topic_name);
      },
    }),
  },
  {
    method: 'GET',
    path: '/messages/matches_narrow',
    endpoint: endpoint({
      params: { msg_ids: p.json(v.list(v.int())), narrow: narrowParam() },
      handler: async ({ deps, user, params }) => ({ messages: await messagesMatchingNarrow(deps, user, params.msg_ids, params.narrow) }),
    }),
  },
  {
    method: 'GET',
    path: '/messages/:message_id',
    endpoint: endpoint({
      params: {
        message_id: p.path.int(),
        apply_markdown: p.bool().default(true),
        allow_empty_topic_name: p.bool().default(false),
      },
      handler: async ({ deps, user, params }) =>
        getSingleMessage(deps, user, params.message_id, {
          applyMarkdown: params.apply_markdown,
          allowEmptyTopicName: params.allow_empty_topic_name,
        }),
    }),
  },
  {
    method: 'PATCH',
    path: '/messages/:message_id',
    endpoint: endpoint({
      params: {
        message_id: p.path.int(),
        topic: p.string({ allowNul: true }).optional().alias('subject'),
        propagate_mode: p.enum(PROPAGATE_MODES).default('change_one'),
        send_notification_to_old_thread: p.bool().default(false),
        send_notification_to_new_thread: p.bool().default(true),
        content: p.string({ allowNul: true }).optional(),
        stream_id: p.int().optional(),
      },
      handler: async ({ deps, user, params }) =>
        editMessage(deps, user, params.message_id, {
          content: params.content,
          topic: params.topic,
          streamId: params.stream_id,
          propagateMode: params.propagate_mode,
          sendNotificationToOldThread: params.send_notification_to_old_thread,
          sendNotificationToNewThread: params.send_notification_to_new_thread,
        }),
    }),
  },
  {
    method: 'DELETE',
    path: '/messages/:message_id',
    endpoint: endpoint({
      params: { message_id: p.path.int() },
      handler: async ({ deps, user, params }) => {
        await deleteMessage(deps, user, params.message_id);
      },
    }),
  },
  {
    method: 'GET',
    path: '/messages/:message_id/history',
    endpoint: endpoint({
      params: { message_id: p.path.int(), allow_empty_topic_name: p.bool().default(false) },
      handler: async ({ deps, user, params }) => ({
        message_history: await getMessageHistory(deps, user, params.message_id, params.allow_empty_topic_name),
      }),
    }),
  },
  {
    method: 'GET',
    path: '/messages/:message_id/read_receipts',
    endpoint: endpoint({
      params: { message_id: p.path.int() },
      handler: async ({ deps, user, params }) => ({ user_ids: await readReceipts(deps, user, params.message_id) }),
    }),
  },
  {
    method: 'POST',
    path: '/messages/:message_id/typing',
    endpoint: endpoint({
      params: { message_id: p.path.int(), op: p.enum(['start', 'stop'] as const) },
      handler: async ({ deps, user, params }) => {
        await sendEditMessageTyping(deps, user, params.message_id, params.op);
      },
    }),
  },
  {
    method: 'POST',
    path: '/streams/:stream_id/delete_topic',
    endpoint: endpoint({
      guard: ({ user }) => requireAdmin(user),
      params: { stream_id: p.path.int(), topic_name: p.string() },
      handler: async ({ deps, user, params }) => deleteTopic(deps, user, params.stream_id, params.topic_name),
    }),
  },
];
