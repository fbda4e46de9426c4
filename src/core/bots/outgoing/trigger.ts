import type { AppDeps } from '../../deps';
import { queueDeliveries } from '../../deliveries/store';
import type { MessageSentListener, UnsentMessage } from '../../messages/sent-listeners';
import type { WebhookPayload } from './deliver';
import type { Trigger } from './payload';
import { OutgoingBots, outgoingBotsCache } from './registry';

/**
 * Zulip's service-bot triggers: a channel message that mentions an outgoing-webhook bot, or a
 * direct message to one. Checked from memory when the message is sent; each call is an outbox
 * item written in the message's transaction, and made afterwards by the delivery worker.
 */
function callsFor(message: UnsentMessage, bots: OutgoingBots): [number, Trigger][] {
  if (bots.size === 0) return [];
  const calls: [number, Trigger][] = [];
  if (message.stream) {
    for (const id of message.mentioned) if (bots.has(id)) calls.push([id, 'mention']);
  } else {
    for (const user of message.participants) if (user.id !== message.sender.id && bots.has(user.id)) calls.push([user.id, 'direct_message']);
  }
  return calls;
}

async function bots(deps: AppDeps, db = deps.knex): Promise<OutgoingBots> {
  const cache = outgoingBotsCache(deps);
  return cache.current() ?? cache.get(db);
}

export const outgoingWebhookCalls: MessageSentListener = {
  async wants(deps, message) {
    return callsFor(message, await bots(deps)).length > 0;
  },
  async write(deps, uow, message) {
    const calls = callsFor(message, await bots(deps, uow.trx));
    await queueDeliveries(
      uow,
      calls.map(([botId, trigger]) => {
        const payload: WebhookPayload = { message_id: message.id, bot_id: botId, trigger };
        return { kind: 'webhook' as const, payload: { ...payload } };
      }),
    );
  },
};
