/** A row of `scheduled_messages`: a message to send later, or a reminder of a message. */
export interface ScheduledRow {
  id: number;
  realm_id: number;
  sender_id: number;
  delivery_type: number;
  type: 'stream' | 'private';
  stream_id: number | null;
  participant_ids: number[];
  topic: string;
  content: string;
  rendered_content: string;
  sending_client: string;
  read_by_sender: boolean;
  scheduled_timestamp: Date;
  delivered: boolean;
  delivered_message_id: number | null;
  failed: boolean;
  failure_message: string | null;
  reminder_target_message_id: number | null;
  reminder_note: string | null;
}

/** Zulip's delivery types. */
export const SEND_LATER = 1;
export const REMIND = 2;

/** Rows as the drivers return them: bigints may come back as strings. */
export function scheduledRow(raw: Record<string, unknown>): ScheduledRow {
  const row = raw as unknown as ScheduledRow;
  return {
    ...row,
    id: Number(row.id),
    delivered_message_id: row.delivered_message_id === null ? null : Number(row.delivered_message_id),
    reminder_target_message_id: row.reminder_target_message_id === null ? null : Number(row.reminder_target_message_id),
    participant_ids: (typeof row.participant_ids === 'string' ? JSON.parse(row.participant_ids) : row.participant_ids).map(Number),
    scheduled_timestamp: new Date(row.scheduled_timestamp),
  };
}
