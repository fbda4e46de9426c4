import { registerMessageSentListener } from '../messages/sent-listeners';
import { registerAccountLifecycleSteps } from '../users/lifecycle';
import { outgoingWebhookCalls } from './outgoing/trigger';
import { botLifecycleSteps } from './lifecycle';

/**
 * Registers the bots feature's part in other features' actions (see `connectFeatures`): bots follow
 * their accounts' lifecycle, and messages to outgoing-webhook bots call their services.
 */
export function connectBots(): void {
  registerAccountLifecycleSteps(botLifecycleSteps);
  registerMessageSentListener(outgoingWebhookCalls);
}
