import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { inTransaction } from '../../db/unit-of-work';
import { errors } from '../../errors';
import { Addressee } from '../messages/addressee';
import { defaultReadBySender } from '../messages/clients';
import { checkMessage, CheckedMessage } from '../messages/send';
import { topicForStorage } from '../messages/topics';
import type { User } from '../users/model';
import { SEND_LATER } from './model';
import { findOwn } from './queries';
import { directTo, scheduledMessageDict, ScheduledMessageDict } from './view';

/**
 * Messages to send later, as Zulip's "schedule message": checked as a send is checked when
 * scheduled (and again when delivered, see delivery.ts), announced to their sender's clients.
 */
export type ScheduledType = 'stream' | 'private';

/** The API's type names ('channel', 'direct') as Zulip stores them. */
export function scheduledType(type: string): ScheduledType {
  return type === 'stream' || type === 'channel' ? 'stream' : 'private';
}

/** `to` of a channel message: one channel id. */
export function parseStreamTo(raw: string): number {
  const trimmed = raw.trim();
  if (!/^[+-]?\d+$/.test(trimmed)) throw errors.badRequest('Invalid data type for channel ID');
  return Number(trimmed);
}

/** `to` of a direct message: a JSON list of user ids. */
export function parseDirectTo(raw: string): number[] {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    value = raw;
  }
  if (!Array.isArray(value)) throw errors.badRequest('Invalid data type for recipients');
  if (!value.every((id) => typeof id === 'number' && Number.isSafeInteger(id))) throw errors.badRequest('Recipient list may only contain user IDs');
  return [...new Set(value as number[])];
}

/** A delivery time in seconds, which must lie in the future. */
export function deliveryTime(seconds: number): Date {
  const at = new Date(seconds * 1000);
  if (!(at.getTime() > Date.now())) throw errors.badRequest('Scheduled delivery time must be in the future.');
  return at;
}

function addresseeOf(type: ScheduledType, to: number | number[]): Addressee {
  if (type === 'stream') return { type: 'stream', channel: to as number };
  return { type: 'private', userIds: to as number[], emails: null };
}

async function check(
  deps: AppDeps,
  db: Knex,
  user: User,
  type: ScheduledType,
  to: number | number[],
  topic: string | null,
  content: string,
  client: string,
): Promise<CheckedMessage> {
  return checkMessage(deps, db, user, { addressee: addresseeOf(type, to), topic: type === 'stream' ? topic : null, content, client });
}

function checkedColumns(type: ScheduledType, checked: CheckedMessage) {
  return {
    type,
    stream_id: checked.streamId,
    participant_ids: JSON.stringify(checked.participantIds),
    topic: checked.topic,
    content: checked.content,
    rendered_content: checked.renderedContent,
  };
}

export interface NewScheduledMessage {
  type: string;
  to: string;
  topic: string | null;
  content: string;
  scheduledDeliveryTimestamp: number;
  readBySender?: boolean;
  client: string;
}

export async function createScheduledMessage(deps: AppDeps, user: User, input: NewScheduledMessage): Promise<number> {
  const type = scheduledType(input.type);
  const at = deliveryTime(input.scheduledDeliveryTimestamp);
  const to = type === 'stream' ? parseStreamTo(input.to) : parseDirectTo(input.to);
  const checked = await check(deps, deps.knex, user, type, to, input.topic, input.content, input.client);
  // Zulip's default: read for its sender when sent from an interactive client, unless to oneself.
  const toSelf = type === 'private' && checked.participantIds.every((id) => id === user.id);
  const readBySender = input.readBySender ?? (defaultReadBySender(input.client) && !toSelf);
  return inTransaction(deps, deps.realmId, async (uow) => {
    const [row] = await uow
      .trx('scheduled_messages')
      .insert({
        realm_id: deps.realmId,
        sender_id: user.id,
        delivery_type: SEND_LATER,
        ...checkedColumns(type, checked),
        sending_client: input.client.slice(0, 30),
        read_by_sender: readBySender,
        scheduled_timestamp: at,
      })
      .returning('*');
    const created = await findOwn(uow.trx, deps.realmId, user.id, Number(row.id), SEND_LATER);
    uow.emit({ type: 'scheduled_messages', op: 'add', scheduled_messages: [scheduledMessageDict(created)] }, [user.id]);
    return created.id;
  });
}

export interface ScheduledMessageChanges {
  type?: string;
  to?: string;
  topic?: string;
  content?: string;
  scheduledDeliveryTimestamp?: number;
  client: string;
}

export async function editScheduledMessage(deps: AppDeps, user: User, id: number, changes: ScheduledMessageChanges): Promise<ScheduledMessageDict> {
  const { type: newType, to, topic, content, scheduledDeliveryTimestamp } = changes;
  if (newType === undefined && to === undefined && topic === undefined && content === undefined && scheduledDeliveryTimestamp === undefined) {
    throw errors.badRequest('Nothing to change');
  }
  if (newType !== undefined && to === undefined) throw errors.badRequest('Recipient required when updating type of scheduled message.');
  if (newType !== undefined && scheduledType(newType) === 'stream' && topic === undefined) {
    throw errors.badRequest('Topic required when updating scheduled message type to stream.');
  }
  const at = scheduledDeliveryTimestamp === undefined ? undefined : deliveryTime(scheduledDeliveryTimestamp);
  return inTransaction(deps, deps.realmId, async (uow) => {
    // Locked: a delivery of this row in progress finishes first, and this sees it delivered.
    const existing = await findOwn(uow.trx, deps.realmId, user.id, id, SEND_LATER);
    if (existing.delivered) throw errors.badRequest('Scheduled message was already sent');
    if (existing.failed && at === undefined) throw errors.badRequest('Scheduled delivery time must be in the future.');
    const patch: Record<string, unknown> = { sending_client: changes.client.slice(0, 30), failed: false, failure_message: null };
    if (newType !== undefined || to !== undefined || content !== undefined) {
      const type = newType !== undefined ? scheduledType(newType) : existing.type;
      const target =
        to === undefined ? (existing.type === 'stream' ? existing.stream_id! : directTo(existing)) : type === 'stream' ? parseStreamTo(to) : parseDirectTo(to);
      const checked = await check(deps, uow.trx, user, type, target, topic ?? existing.topic, content ?? existing.content, changes.client);
      if (newType !== undefined || to !== undefined) Object.assign(patch, checkedColumns(type, checked));
      else if (topic !== undefined && existing.type === 'stream') patch.topic = checked.topic;
      if (content !== undefined) Object.assign(patch, { content: checked.content, rendered_content: checked.renderedContent });
    } else if (topic !== undefined && existing.type === 'stream') {
      patch.topic = topicForStorage(topic);
    }
    if (at !== undefined) patch.scheduled_timestamp = at;
    await uow.trx('scheduled_messages').where({ id: existing.id }).update(patch);
    const updated = await findOwn(uow.trx, deps.realmId, user.id, existing.id, SEND_LATER);
    const dict = scheduledMessageDict(updated);
    uow.emit({ type: 'scheduled_messages', op: 'update', scheduled_message: dict }, [user.id]);
    return dict;
  });
}

/** Cancels one of the user's scheduled messages; returns it as it was. */
export async function deleteScheduledMessage(deps: AppDeps, user: User, id: number): Promise<ScheduledMessageDict> {
  return inTransaction(deps, deps.realmId, async (uow) => {
    const existing = await findOwn(uow.trx, deps.realmId, user.id, id, SEND_LATER);
    await uow.trx('scheduled_messages').where({ id: existing.id }).delete();
    uow.emit({ type: 'scheduled_messages', op: 'remove', scheduled_message_id: existing.id }, [user.id]);
    return scheduledMessageDict(existing);
  });
}
