import type { UnitOfWork } from '../../db/unit-of-work';
import { listParam } from '../../db/lists';
import { DeliveryFailure, DeliveryHandler } from '../deliveries/handler';
import { forgetGoneTokens } from '../devices/gone-tokens';
import { uploadRealms } from '../push/realm-upload';
import { BouncerError, postToBouncer } from './bouncer';

/**
 * A request to the push service, as an outbox item (push.ts writes them): one for the user's E2EE
 * devices (push/e2ee/notify), one for their legacy tokens (push/notify). What the service answers
 * about devices it no longer has is applied when the item is marked sent. The item's key goes in
 * an `X-Parley-Delivery` header: Zulip's push service protocol has no field for one, so the
 * service does not use it to drop a repeat.
 */
export interface PushRequestPayload {
  user_id: number;
  endpoint: 'push/e2ee/notify' | 'push/notify';
  body: Record<string, unknown>;
}

/** As Zulip's server: MAX_RETRIES retries when the service is unreachable or failing. */
export const MAX_RETRIES = 3;

export const pushHandler: DeliveryHandler = {
  maxAttempts: 1 + MAX_RETRIES,
  async send(deps, item) {
    const service = deps.config.pushService;
    if (!service) throw new DeliveryFailure('no push service configured', false);
    const { user_id: userId, endpoint, body } = item.payload as unknown as PushRequestPayload;
    let answer: Record<string, unknown>;
    try {
      answer = await postToBouncer(service, endpoint, body, 'json', item.key);
    } catch (error) {
      if (!(error instanceof BouncerError)) throw error;
      // A service not yet told of the organization is told now, so the retry finds it there.
      const missingRealm = error.code === 'MISSING_REMOTE_REALM';
      if (missingRealm) await uploadRealms(deps);
      throw new DeliveryFailure(error.code ?? error.message.slice(0, 120), error.retryable || missingRealm);
    }
    return (uow) => forgetGoneDevices(uow, userId, endpoint, answer);
  },
};

/** Devices the service no longer has (the app was uninstalled, the token expired). */
async function forgetGoneDevices(uow: UnitOfWork, userId: number, endpoint: PushRequestPayload['endpoint'], answer: Record<string, unknown>): Promise<void> {
  if (endpoint === 'push/e2ee/notify') {
    await forgetGoneTokens(uow, userId, answer);
    return;
  }
  const deleted = (answer.deleted_devices ?? {}) as { android_devices?: unknown; apple_devices?: unknown };
  for (const [kind, list] of [
    ['fcm', deleted.android_devices],
    ['apns', deleted.apple_devices],
  ] as const) {
    const tokens = Array.isArray(list) ? list.filter((t): t is string => typeof t === 'string') : [];
    if (tokens.length > 0) {
      await uow.trx.raw('DELETE FROM push_device_tokens WHERE user_id = ? AND kind = ? AND token = ANY(?::text[])', [userId, kind, listParam(tokens, 'text')]);
    }
  }
}
