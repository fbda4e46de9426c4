import type { AppDeps } from '../deps';
import type { UnitOfWork } from '../../db/unit-of-work';
import { inTransaction } from '../../db/unit-of-work';
import { loadViewer } from '../channels/access';
import { accessMessage, eventRecipientsForMessages } from '../messages/access';
import type { User } from '../users/model';
import { verifySubmessageSender } from './access';
import { widgetTypeOf } from './queries';
import { checkWidgetData, parseSubmessageContent } from './validation';
import { SubmessageDict, submessageEvent } from './view';
import { pythonJson, WidgetContent } from './widget';

async function insertSubmessage(db: UnitOfWork['trx'], fields: Omit<SubmessageDict, 'id'>): Promise<SubmessageDict> {
  const [row] = await db('submessages').insert(fields).returning('id');
  return { id: Number(row.id), ...fields };
}

/**
 * Stores the widget a new message makes, as its first submessage (msg_type "widget"), in the
 * transaction sending the message; the message event carries it.
 */
export async function createWidgetSubmessage(uow: UnitOfWork, messageId: number, senderId: number, widget: WidgetContent): Promise<SubmessageDict> {
  return insertSubmessage(uow.trx, { message_id: messageId, sender_id: senderId, msg_type: 'widget', content: pythonJson(widget) });
}

export interface SubmessageRequest {
  messageId: number;
  msgType: string;
  /** JSON text, stored as sent. */
  content: string;
}

/**
 * POST /submessage: acts on a message's widget (a vote, a new option, a checked task). The
 * message is locked while the submessage is added, so concurrent actions keep one order; the
 * `submessage` event goes to those who hear about actions on the message.
 */
export async function addSubmessage(deps: AppDeps, user: User, request: SubmessageRequest): Promise<SubmessageDict> {
  return inTransaction(deps, deps.realmId, async (uow) => {
    const db = uow.trx;
    const viewer = await loadViewer(db, user);
    const { message, stream } = await accessMessage(db, viewer, request.messageId, { modifying: true, lock: true });
    await verifySubmessageSender(db, message, user.id);
    const data = parseSubmessageContent(request.content);
    checkWidgetData(await widgetTypeOf(db, message.id), data, message.sender_id === user.id);
    const submessage = await insertSubmessage(db, { message_id: message.id, sender_id: user.id, msg_type: request.msgType, content: request.content });
    uow.emit(submessageEvent(submessage), await eventRecipientsForMessages(db, [message.id], stream));
    return submessage;
  });
}
