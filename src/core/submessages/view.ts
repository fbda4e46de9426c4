import type { ZulipEvent } from '../../realtime/bus';

/** A submessage as message dictionaries carry it (Zulip's `submessages` entries). */
export interface SubmessageDict {
  id: number;
  message_id: number;
  sender_id: number;
  msg_type: string;
  content: string;
}

/** The dict of a row read from `submessages` (which may carry more columns some day). */
export function submessageDict(row: SubmessageDict): SubmessageDict {
  return { id: row.id, message_id: row.message_id, sender_id: row.sender_id, msg_type: row.msg_type, content: row.content };
}

/** Zulip's `submessage` event: one new submessage of a message. */
export function submessageEvent(submessage: SubmessageDict): ZulipEvent {
  return {
    type: 'submessage',
    msg_type: submessage.msg_type,
    content: submessage.content,
    message_id: submessage.message_id,
    sender_id: submessage.sender_id,
    submessage_id: submessage.id,
  };
}
