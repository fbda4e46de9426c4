import type { Knex } from 'knex';
import { anyOf } from '../../db/lists';
import { SubmessageDict, submessageDict } from './view';

const COLUMNS = ['id', 'message_id', 'sender_id', 'msg_type', 'content'];

/** Submessages of each message, oldest first: one statement for a whole batch of messages. */
export async function submessagesForMessages(db: Knex, messageIds: number[]): Promise<Map<number, SubmessageDict[]>> {
  const out = new Map<number, SubmessageDict[]>();
  if (messageIds.length === 0) return out;
  const rows: SubmessageDict[] = await db('submessages')
    .whereRaw(...anyOf('message_id', messageIds))
    .orderBy('id')
    .select(COLUMNS);
  for (const row of rows) {
    const list = out.get(row.message_id) ?? [];
    list.push(submessageDict(row));
    out.set(row.message_id, list);
  }
  return out;
}

/** Whether the message carries a widget (every message with submessages does, as in Zulip). */
export async function isWidgetMessage(db: Knex, messageId: number): Promise<boolean> {
  return (await db('submessages').where('message_id', messageId).first('id')) !== undefined;
}

/** The type named by the message's first widget submessage, or null (also for unreadable content). */
export async function widgetTypeOf(db: Knex, messageId: number): Promise<string | null> {
  const row: { content: string } | undefined = await db('submessages').where({ message_id: messageId, msg_type: 'widget' }).orderBy('id').first('content');
  if (!row) return null;
  try {
    const data = JSON.parse(row.content);
    return typeof data?.widget_type === 'string' ? data.widget_type : null;
  } catch {
    return null;
  }
}

/** Whether the user has attached any submessage to the message. */
export async function hasSubmessageFrom(db: Knex, messageId: number, senderId: number): Promise<boolean> {
  return (await db('submessages').where({ message_id: messageId, sender_id: senderId }).first('id')) !== undefined;
}
