import type { StateSlice } from '../register/slice';
import { listReminders, listScheduledMessages } from './queries';
import type { ReminderDict, ScheduledMessageDict } from './view';

const byDeliveryTime = <T extends { scheduled_delivery_timestamp: number }>(a: T, b: T, idA: number, idB: number) =>
  a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp || idA - idB;

/** `scheduled_messages`: the user's messages waiting to be sent, earliest first. */
export const scheduledMessagesSlice: StateSlice = {
  fetchTypes: ['scheduled_messages'],
  fetch: async (deps, user) => ({ scheduled_messages: await listScheduledMessages(deps.knex, deps.realmId, user.id) }),
  apply(state, event) {
    if (event.type !== 'scheduled_messages') return;
    let list = state.scheduled_messages as ScheduledMessageDict[];
    if (event.op === 'add') {
      for (const added of event.scheduled_messages as ScheduledMessageDict[]) {
        if (!list.some((m) => m.scheduled_message_id === added.scheduled_message_id)) list.push(added);
      }
    } else if (event.op === 'update') {
      const updated = event.scheduled_message as ScheduledMessageDict;
      list = list.map((m) => (m.scheduled_message_id === updated.scheduled_message_id ? updated : m));
    } else if (event.op === 'remove') {
      list = list.filter((m) => m.scheduled_message_id !== event.scheduled_message_id);
    }
    state.scheduled_messages = list.sort((a, b) => byDeliveryTime(a, b, a.scheduled_message_id, b.scheduled_message_id));
  },
};

/** `reminders`: the user's reminders not yet delivered, earliest first. */
export const remindersSlice: StateSlice = {
  fetchTypes: ['reminders'],
  fetch: async (deps, user) => ({ reminders: await listReminders(deps.knex, deps.realmId, user.id) }),
  apply(state, event) {
    if (event.type !== 'reminders') return;
    let list = state.reminders as ReminderDict[];
    if (event.op === 'add') {
      for (const added of event.reminders as ReminderDict[]) {
        if (!list.some((r) => r.reminder_id === added.reminder_id)) list.push(added);
      }
    } else if (event.op === 'remove') {
      list = list.filter((r) => r.reminder_id !== event.reminder_id);
    }
    state.reminders = list.sort((a, b) => byDeliveryTime(a, b, a.reminder_id, b.reminder_id));
  },
};
