import type { PushServiceConfig } from '../../config';
import type { AppDeps } from '../deps';
import { inTransaction } from '../../db/unit-of-work';
import { FLAG_BITS } from '../messages/flags';
import { ClientDevice } from '../devices/model';
import { forgetGoneTokens } from '../devices/gone-tokens';
import { encryptForDevice } from '../push/registration';
import { requestRealmUpload } from '../push/realm-upload';
import { unregisterAllWithService } from '../push/service';
import { storedRealmSetting } from '../realm/setting-store';
import { User } from '../users/model';
import { BouncerError, postToBouncer, realmUuid, userUuid } from './bouncer';
import { mentionedGroup } from './mentioned-group';
import { loadNotifiedMessages } from './messages';
import {
  e2eeMessagePayload,
  e2eeRemovePayload,
  legacyApnsPayload,
  legacyGcmPayload,
  legacyRemovePayloads,
  redactLegacyPayloads,
  RealmIdentity,
  realmIdentity,
} from './push-payloads';
import { claimPushJobs, finishJobs, JobRow, retryJobs } from './queue';
import { MAX_RETRIES, PushRequestPayload } from './push-send';
import { insertDeliveries } from '../deliveries/store';
import { deliverNow } from '../deliveries/attempt';
import { describeFailure } from '../../failure-log';

/**
 * Mobile notifications through the push service: E2EE payloads, encrypted with each device's
 * push key, for devices registered with POST /mobile_push/register and active at the
 * service (each named by the service's device id: only the service knows the token), and Zulip's
 * legacy payloads for the user, which the service sends to the tokens registered there for them.
 * A due job becomes the outbox items of its requests to the service (push-send.ts), written in
 * the transaction that deletes the job, and sent at once; the delivery worker retries them. A job
 * that cannot be prepared (or a token forgetting the service refuses for now) is retried here,
 * up to MAX_RETRIES times.
 */
/** Seconds before retry n (1-based): 1, 2, 4... */
export const retryDelayMs = (attempt: number) => 2 ** (attempt - 1) * 1000;

interface LegacyToken {
  kind: 'apns' | 'fcm';
  token: string;
}

/** Queues (and sends at once) the due mobile notifications and removals; answers how many jobs brought requests. */
export async function deliverDuePushes(deps: AppDeps, now = new Date()): Promise<number> {
  const service = deps.config.pushService;
  if (!service) return 0;
  const jobs = await claimPushJobs(deps.knex, deps.realmId, now);
  if (jobs.length === 0) return 0;
  const realm = await deps.knex('realms').where({ id: deps.realmId }).first();
  const identity = realmIdentity(deps.config, deps.realmId, realm?.name ?? deps.config.realmName);
  let queued = 0;
  const items: number[] = [];
  // Finished jobs are deleted together, once the batch is through.
  const finished: number[] = [];
  try {
    for (const job of jobs) {
      try {
        if (job.kind === 'push_forget') {
          const user = await User.query(deps.knex).findById(job.user_id);
          if (user) await unregisterAllWithService(service, user);
          finished.push(job.id);
          continue;
        }
        const prepared = await prepare(deps, service, identity, job);
        await deps.knex.transaction(async (trx) => {
          if (prepared?.flagMessageId !== undefined) {
            // Flagged with the queuing, as Zulip flags before sending: a read from now on takes
            // the notification back (the removal is queued after this one, so it follows it).
            await trx.raw('UPDATE user_messages SET flags = flags | ? WHERE user_id = ? AND message_id = ?', [
              FLAG_BITS.active_mobile_push_notification,
              job.user_id,
              prepared.flagMessageId,
            ]);
          }
          const requests = prepared?.requests ?? [];
          items.push(
            ...(await insertDeliveries(
              trx,
              deps.realmId,
              requests.map((payload) => ({ kind: 'push' as const, payload: { ...payload } })),
            )),
          );
          await finishJobs(trx, [job.id]);
        });
        if (prepared) queued += 1;
      } catch (error) {
        // A service not yet told of the organization takes it on the worker's next pass.
        const missingRealm = error instanceof BouncerError && error.code === 'MISSING_REMOTE_REALM';
        if (missingRealm) requestRealmUpload(deps);
        const what = job.kind === 'push_forget' ? 'forgetting the push tokens' : 'push notification';
        const retryable = !(error instanceof BouncerError) || error.retryable || missingRealm;
        if (retryable && job.attempts < MAX_RETRIES) {
          console.warn(`${what} for user ${job.user_id} will be retried: ${describeFailure(error).split('\n')[0]}`);
          await retryJobs(deps.knex, [job.id], new Date(Date.now() + retryDelayMs(job.attempts + 1)));
        } else {
          console.warn(`${what} for user ${job.user_id} given up after ${job.attempts + 1} attempts: ${describeFailure(error).split('\n')[0]}`);
          finished.push(job.id);
        }
      }
    }
  } finally {
    await finishJobs(deps.knex, finished);
  }
  await deliverNow(deps, items);
  return queued;
}

async function devicesOf(deps: AppDeps, userId: number): Promise<{ e2ee: ClientDevice[]; legacy: LegacyToken[] }> {
  const e2ee = await ClientDevice.query(deps.knex).where({ user_id: userId }).whereNotNull('push_token_id').whereNotNull('push_key');
  const legacy = (await deps.knex('push_device_tokens').where({ user_id: userId }).select('kind', 'token')) as LegacyToken[];
  return { e2ee, legacy };
}

/** What a due job sends: the requests to the service, and the message to flag as notified; null when nothing. */
interface PreparedPush {
  requests: PushRequestPayload[];
  flagMessageId?: number;
}

async function prepare(deps: AppDeps, service: PushServiceConfig, realm: RealmIdentity, job: JobRow): Promise<PreparedPush | null> {
  const devices = await devicesOf(deps, job.user_id);
  if (devices.e2ee.length === 0 && devices.legacy.length === 0) return null;
  if (job.kind === 'push_remove') {
    const ids = job.message_ids ?? [];
    if (ids.length === 0) return null;
    const requests = await requestsFor(service, realm, job.user_id, devices, e2eeRemovePayload(realm, job.user_id, ids), () => {
      const { gcm, apns } = legacyRemovePayloads(realm, job.user_id, ids);
      return { gcm, apns, priority: 'normal' };
    });
    return { requests };
  }
  const row = await deps.knex('user_messages').where({ user_id: job.user_id, message_id: job.message_id }).first();
  if (!row || (row.flags & FLAG_BITS.read) !== 0) return null;
  const message = (await loadNotifiedMessages(deps.knex, deps.config, deps.realmId, [job.message_id!])).get(job.message_id!);
  if (!message) return null;
  const group = await mentionedGroup(deps.knex, deps.realmId, job.user_id, row.flags, message.html);
  const redact = devices.legacy.length > 0 && (await storedRealmSetting(deps.knex, deps.realmId, 'require_e2ee_push_notifications', false));
  const requests = await requestsFor(service, realm, job.user_id, devices, e2eeMessagePayload(realm, job.user_id, message, group), () => {
    const gcm = legacyGcmPayload(realm, job.user_id, message, group);
    const apns = legacyApnsPayload(realm, job.user_id, message, job.trigger);
    return { ...(redact ? redactLegacyPayloads(gcm, apns) : { gcm, apns }), priority: 'high' };
  });
  return { requests, flagMessageId: job.message_id! };
}

/** One request for the user's E2EE devices and one for their legacy tokens, as they have them. */
async function requestsFor(
  service: PushServiceConfig,
  realm: RealmIdentity,
  userId: number,
  devices: { e2ee: ClientDevice[]; legacy: LegacyToken[] },
  e2ee: Record<string, unknown>,
  legacy: () => { gcm: Record<string, unknown>; apns: Record<string, unknown>; priority: 'high' | 'normal' },
): Promise<PushRequestPayload[]> {
  const requests: PushRequestPayload[] = [];
  if (devices.e2ee.length > 0) {
    requests.push({ user_id: userId, endpoint: 'push/e2ee/notify', body: await e2eeRequestBody(service, realm.realmId, devices.e2ee, e2ee) });
  }
  if (devices.legacy.length > 0) {
    const { gcm, apns, priority } = legacy();
    requests.push({
      user_id: userId,
      endpoint: 'push/notify',
      body: {
        user_id: userId,
        user_uuid: userUuid(service, realm.realmId, userId),
        realm_uuid: realmUuid(service, realm.realmId),
        android_devices: devices.legacy.filter((d) => d.kind === 'fcm').map((d) => d.token),
        apple_devices: devices.legacy.filter((d) => d.kind === 'apns').map((d) => d.token),
        gcm_payload: gcm,
        gcm_options: { priority },
        apns_payload: apns,
      },
    });
  }
  return requests;
}

/** The push/e2ee/notify body: the plaintext encrypted with each device's push key. */
async function e2eeRequestBody(
  service: PushServiceConfig,
  realmId: number,
  devices: ClientDevice[],
  plaintext: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const priority = plaintext.type === 'remove' ? 'normal' : 'high';
  const pushRequests = await Promise.all(
    devices.map(async (device) => {
      // The service knows the device by its token's id; the app finds its key by the key's id.
      const common = { token_id: device.push_token_id };
      const encrypted = await encryptForDevice(plaintext, device.push_key!);
      if (device.push_token_kind === 'fcm') {
        // FCM data messages carry only string values.
        return { ...common, fcm_priority: priority, payload: { push_key_id: String(device.push_key_id), encrypted_data: encrypted } };
      }
      return {
        ...common,
        http_headers: { apns_priority: priority === 'high' ? 10 : 5, apns_push_type: priority === 'high' ? 'alert' : 'background' },
        payload: {
          push_key_id: device.push_key_id,
          encrypted_data: encrypted,
          aps: priority === 'high' ? { 'mutable-content': 1, alert: { title: 'New notification' }, sound: 'default' } : { 'content-available': 1 },
        },
      };
    }),
  );
  return { realm_uuid: realmUuid(service, realmId), push_requests: pushRequests };
}

/**
 * Sends one plaintext to each of the user's E2EE devices through the service, encrypted with each
 * device's push key; devices the service no longer has (the app was uninstalled, the token expired)
 * are forgotten.
 */
export async function sendE2ee(
  deps: AppDeps,
  service: PushServiceConfig,
  realmId: number,
  userId: number,
  devices: ClientDevice[],
  plaintext: Record<string, unknown>,
): Promise<void> {
  const answer = await postToBouncer(service, 'push/e2ee/notify', await e2eeRequestBody(service, realmId, devices, plaintext));
  await inTransaction(deps, realmId, (uow) => forgetGoneTokens(uow, userId, answer));
}
