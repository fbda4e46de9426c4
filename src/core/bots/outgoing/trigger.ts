import type { AppDeps } from '../../deps';
import type { SentMessage } from '../../messages/sent-listeners';
import { callOutgoingWebhook, runInBackground } from './deliver';
import type { Trigger } from './payload';
import { OutgoingBots, outgoingBotsCache } from './registry';

/**
 * Zulip's service-bot triggers: a channel message that mentions an outgoing-webhook bot, or a
 * direct message to one. Checked from memory when the message is sent; the calls run afterwards.
 */
export function onMessageSent(deps: AppDeps, sent: SentMessage): void {
  const cache = outgoingBotsCache(deps);
  const bots = cache.current();
  if (bots !== undefined) {
    startCalls(deps, sent, bots);
    return;
  }
  runInBackground(cache.get().then((loaded) => startCalls(deps, sent, loaded)));
}

function startCalls(deps: AppDeps, sent: SentMessage, bots: OutgoingBots): void {
  if (bots.size === 0) return;
  const calls: [number, Trigger][] = [];
  if (sent.stream) {
    for (const id of sent.mentioned) if (bots.has(id)) calls.push([id, 'mention']);
  } else {
    for (const user of sent.participants) if (user.id !== sent.sender.id && bots.has(user.id)) calls.push([user.id, 'direct_message']);
  }
  for (const [id, trigger] of calls) runInBackground(callOutgoingWebhook(deps, sent, bots.get(id)!, trigger));
}
