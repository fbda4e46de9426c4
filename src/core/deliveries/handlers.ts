import { webhookHandler } from '../bots/outgoing/deliver';
import { pushHandler } from '../notifications/push-send';
import { emailHandler } from './email';
import type { DeliveryHandler } from './handler';
import type { DeliveryKind } from './store';

/** Each kind of outbox item, and what sends it. */
export const HANDLERS: Record<DeliveryKind, DeliveryHandler> = {
  webhook: webhookHandler,
  email: emailHandler,
  push: pushHandler,
};
