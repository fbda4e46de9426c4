import type { ScheduledRow } from './model';

export interface ScheduledMessageDict {
  scheduled_message_id: number;
  type: 'stream' | 'private';
  to: number | number[];
  topic?: string;
  content: string;
  rendered_content: string;
  scheduled_delivery_timestamp: number;
  failed: boolean;
}

export interface ReminderDict {
  reminder_id: number;
  type: 'private';
  to: number[];
  content: string;
  rendered_content: string;
  scheduled_delivery_timestamp: number;
  failed: boolean;
  reminder_target_message_id: number;
}

/** A direct message's `to` as Zulip shows it: the other participants, or the sender alone. */
export function directTo(row: ScheduledRow): number[] {
  const others = row.participant_ids.filter((id) => id !== row.sender_id);
  return others.length > 0 ? others : [row.sender_id];
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

export function scheduledMessageDict(row: ScheduledRow): ScheduledMessageDict {
  const common = {
    scheduled_message_id: row.id,
    type: row.type,
    content: row.content,
    rendered_content: row.rendered_content,
    scheduled_delivery_timestamp: seconds(row.scheduled_timestamp),
    failed: row.failed,
  };
  if (row.type === 'stream') return { ...common, to: row.stream_id!, topic: row.topic };
  return { ...common, to: directTo(row) };
}

export function reminderDict(row: ScheduledRow): ReminderDict {
  return {
    reminder_id: row.id,
    type: 'private',
    to: directTo(row),
    content: row.content,
    rendered_content: row.rendered_content,
    scheduled_delivery_timestamp: seconds(row.scheduled_timestamp),
    failed: row.failed,
    reminder_target_message_id: row.reminder_target_message_id!,
  };
}
