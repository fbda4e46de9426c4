import { createScheduledMessage, deleteScheduledMessage, editScheduledMessage } from '../core/scheduled-messages/actions';
import { listReminders, listScheduledMessages } from '../core/scheduled-messages/queries';
import { createReminder, deleteReminder } from '../core/scheduled-messages/reminders';
import { MESSAGE_TYPES } from '../core/messages/addressee';
import { endpoint, p } from './endpoint';
import { clientName } from './messages';
import type { Route } from './router';

export const scheduledMessageRoutes: Route[] = [
  {
    method: 'GET',
    path: '/scheduled_messages',
    endpoint: endpoint({
      params: {},
      handler: async ({ deps, user }) => ({ scheduled_messages: await listScheduledMessages(deps.knex, deps.realmId, user.id) }),
    }),
  },
  {
    method: 'POST',
    path: '/scheduled_messages',
    endpoint: endpoint({
      params: {
        type: p.enum(MESSAGE_TYPES),
        to: p.string(),
        topic: p.string().optional().alias('subject'),
        content: p.string(),
        scheduled_delivery_timestamp: p.int(),
        read_by_sender: p.bool().optional(),
      },
      handler: async ({ deps, user, params, req }) => ({
        scheduled_message_id: await createScheduledMessage(deps, user, {
          type: params.type,
          to: params.to,
          topic: params.topic ?? null,
          content: params.content,
          scheduledDeliveryTimestamp: params.scheduled_delivery_timestamp,
          readBySender: params.read_by_sender,
          client: clientName(req),
        }),
      }),
    }),
  },
  {
    method: 'PATCH',
    path: '/scheduled_messages/:scheduled_message_id',
    endpoint: endpoint({
      params: {
        scheduled_message_id: p.path.int(),
        type: p.enum(MESSAGE_TYPES).optional(),
        to: p.string().optional(),
        topic: p.string().optional().alias('subject'),
        content: p.string().optional(),
        scheduled_delivery_timestamp: p.int().optional(),
      },
      handler: async ({ deps, user, params, req }) => {
        await editScheduledMessage(deps, user, params.scheduled_message_id, {
          type: params.type,
          to: params.to,
          topic: params.topic,
          content: params.content,
          scheduledDeliveryTimestamp: params.scheduled_delivery_timestamp,
          client: clientName(req),
        });
      },
    }),
  },
  {
    method: 'DELETE',
    path: '/scheduled_messages/:scheduled_message_id',
    endpoint: endpoint({
      params: { scheduled_message_id: p.path.int() },
      handler: async ({ deps, user, params }) => {
        await deleteScheduledMessage(deps, user, params.scheduled_message_id);
      },
    }),
  },
  {
    method: 'GET',
    path: '/reminders',
    endpoint: endpoint({
      params: {},
      handler: async ({ deps, user }) => ({ reminders: await listReminders(deps.knex, deps.realmId, user.id) }),
    }),
  },
  {
    method: 'POST',
    path: '/reminders',
    endpoint: endpoint({
      params: { message_id: p.int(), scheduled_delivery_timestamp: p.int(), note: p.string().optional() },
      handler: async ({ deps, user, params, req }) => ({
        reminder_id: await createReminder(deps, user, {
          messageId: params.message_id,
          scheduledDeliveryTimestamp: params.scheduled_delivery_timestamp,
          note: params.note,
          client: clientName(req),
        }),
      }),
    }),
  },
  {
    method: 'DELETE',
    path: '/reminders/:reminder_id',
    endpoint: endpoint({
      params: { reminder_id: p.path.int() },
      handler: async ({ deps, user, params }) => {
        await deleteReminder(deps, user, params.reminder_id);
      },
    }),
  },
];
