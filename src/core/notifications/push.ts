import sodium from 'libsodium-wrappers';
import type { PushServiceConfig } from '../../config';
import type { AppDeps } from '../deps';
import { listParam } from '../../db/lists';
import { FLAG_BITS } from '../messages/flags';
import { PushDevice } from '../push/model';
import { requestRealmUpload } from '../push/realm-upload';
import { unregisterAllWithService } from '../push/service';
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
  RealmIdentity,
  realmIdentity,
} from './push-payloads';
import { claimPushJobs, finishJobs, JobRow, retryJobs } from './queue';

/**
 * Mobile notifications through the push service: E2EE payloads, sealed to each device's
 * push_public_key, for devices registered with POST /mobile_push/register and active at the
 * service (each named by the service's device id: only the service knows the token), and Zulip's
 * legacy payloads for the user, which the service sends to the tokens registered there for them. As Zulip's server: up to MAX_RETRIES retries when the service
 * is unreachable or failing, then the notification is given up; a refusal is not retried.
 */
export const MAX_RETRIES = 3;
/** Seconds before retry n (1-based): 1, 2, 4... */
export const retryDelayMs = (attempt: number) => 2 ** (attempt - 1) * 1000;

interface LegacyToken {
  kind: 'apns' | 'fcm';
  token: string;
}

async function seal(plaintext: Record<string, unknown>, publicKeyBase64: string): Promise<string> {
  await sodium.ready;
  const sealed = sodium.crypto_box_seal(Buffer.from(JSON.stringify(plaintext), 'utf8'), Buffer.from(publicKeyBase64, 'base64'));
  return Buffer.from(sealed).toString('base64');
}

export async function deliverDuePushes(deps: AppDeps, now = new Date()): Promise<number> {
  const service = deps.config.pushService;
  if (!service) return 0;
  const jobs = await claimPushJobs(deps.knex, deps.realmId, now);
  if (jobs.length === 0) return 0;
  const realm = await deps.knex('realms').where({ id: deps.realmId }).first();
  const identity = realmIdentity(deps.config, deps.realmId, realm?.name ?? deps.config.realmName);
  let sent = 0;
  // Finished jobs are deleted together, once the batch is through.
  const finished: number[] = [];
  try {
    for (const job of jobs) {
      try {
        if (await deliverOne(deps, service, identity, job)) sent += 1;
        finished.push(job.id);
      } catch (error) {
        // A service not yet told of the organization takes it on the worker's next pass.
        const missingRealm = error instanceof BouncerError && error.code === 'MISSING_REMOTE_REALM';
        if (missingRealm) requestRealmUpload(deps);
        const what = job.kind === 'push_forget' ? 'forgetting the push tokens' : 'push notification';
        if (error instanceof BouncerError && (error.retryable || missingRealm) && job.attempts < MAX_RETRIES) {
          console.warn(`${what} for user ${job.user_id} will be retried: ${error.message}`);
          await retryJobs(deps.knex, [job.id], new Date(Date.now() + retryDelayMs(job.attempts + 1)));
        } else {
          const reason = error instanceof Error ? error.message : String(error);
          console.warn(`${what} for user ${job.user_id} given up after ${job.attempts + 1} attempts: ${reason}`);
          finished.push(job.id);
        }
      }
    }
  } finally {
    await finishJobs(deps.knex, finished);
  }
  return sent;
}

async function devicesOf(deps: AppDeps, userId: number): Promise<{ e2ee: PushDevice[]; legacy: LegacyToken[] }> {
  const e2ee = await PushDevice.query(deps.knex).where({ user_id: userId, error_code: null }).whereNotNull('bouncer_device_id');
  const legacy = (await deps.knex('push_device_tokens').where({ user_id: userId }).select('kind', 'token')) as LegacyToken[];
  return { e2ee, legacy };
}

async function deliverOne(deps: AppDeps, service: PushServiceConfig, realm: RealmIdentity, job: JobRow): Promise<boolean> {
  if (job.kind === 'push_forget') {
    const user = await User.query(deps.knex).findById(job.user_id);
    if (user) await unregisterAllWithService(service, user);
    return false;
  }
  const devices = await devicesOf(deps, job.user_id);
  if (devices.e2ee.length === 0 && devices.legacy.length === 0) return false;
  if (job.kind === 'push_remove') {
    const ids = job.message_ids ?? [];
    if (ids.length === 0) return false;
    await send(
      deps,
      service,
      realm,
      job.user_id,
      devices,
      (userId) => e2eeRemovePayload(realm, userId, ids),
      () => {
        const { gcm, apns } = legacyRemovePayloads(realm, job.user_id, ids);
        return { gcm, apns, priority: 'normal' };
      },
    );
    return true;
  }
  const row = await deps.knex('user_messages').where({ user_id: job.user_id, message_id: job.message_id }).first();
  if (!row || (row.flags & FLAG_BITS.read) !== 0) return false;
  const message = (await loadNotifiedMessages(deps.knex, deps.config, deps.realmId, [job.message_id!])).get(job.message_id!);
  if (!message) return false;
  const group = await mentionedGroup(deps.knex, deps.realmId, job.user_id, row.flags, message.html);
  // Flagged before sending, as Zulip does: a read from now on takes the notification back (the
  // removal is queued after this job, so it follows it), and a crash after the send cannot leave
  // a notification showing that no removal would ever find.
  await deps.knex.raw('UPDATE user_messages SET flags = flags | ? WHERE user_id = ? AND message_id = ?', [
    FLAG_BITS.active_mobile_push_notification,
    job.user_id,
    job.message_id,
  ]);
  await send(
    deps,
    service,
    realm,
    job.user_id,
    devices,
    (userId) => e2eeMessagePayload(realm, userId, message, group),
    () => ({
      gcm: legacyGcmPayload(realm, job.user_id, message, group),
      apns: legacyApnsPayload(realm, job.user_id, message, job.trigger),
      priority: 'high',
    }),
  );
  return true;
}

async function send(
  deps: AppDeps,
  service: PushServiceConfig,
  realm: RealmIdentity,
  userId: number,
  devices: { e2ee: PushDevice[]; legacy: LegacyToken[] },
  e2ee: (userId: number) => Record<string, unknown>,
  legacy: () => { gcm: Record<string, unknown>; apns: Record<string, unknown>; priority: 'high' | 'normal' },
): Promise<void> {
  const realmId = realmUuid(service, realm.realmId);
  if (devices.e2ee.length > 0) await sendE2ee(deps, service, realm.realmId, userId, devices.e2ee, e2ee(userId));
  if (devices.legacy.length > 0) {
    const { gcm, apns, priority } = legacy();
    const answer = await postToBouncer(service, 'push/notify', {
      user_id: userId,
      user_uuid: userUuid(service, realm.realmId, userId),
      realm_uuid: realmId,
      android_devices: devices.legacy.filter((d) => d.kind === 'fcm').map((d) => d.token),
      apple_devices: devices.legacy.filter((d) => d.kind === 'apns').map((d) => d.token),
      gcm_payload: gcm,
      gcm_options: { priority },
      apns_payload: apns,
    });
    const deleted = (answer.deleted_devices ?? {}) as { android_devices?: unknown; apple_devices?: unknown };
    for (const [kind, list] of [
      ['fcm', deleted.android_devices],
      ['apns', deleted.apple_devices],
    ] as const) {
      const tokens = Array.isArray(list) ? list.filter((t): t is string => typeof t === 'string') : [];
      if (tokens.length > 0) {
        await deps.knex.raw('DELETE FROM push_device_tokens WHERE user_id = ? AND kind = ? AND token = ANY(?::text[])', [
          userId,
          kind,
          listParam(tokens, 'text'),
        ]);
      }
    }
  }
}

/**
 * Sends one plaintext to each of the user's E2EE devices through the service, sealed to each
 * device's key; devices the service no longer has (the app was uninstalled, the token expired)
 * are forgotten.
 */
export async function sendE2ee(
  deps: AppDeps,
  service: PushServiceConfig,
  realmId: number,
  userId: number,
  devices: PushDevice[],
  plaintext: Record<string, unknown>,
): Promise<void> {
  const priority = plaintext.type === 'remove' ? 'normal' : 'high';
  const pushRequests = await Promise.all(
    devices.map(async (device) => {
      const common = { device_id: device.bouncer_device_id };
      const encrypted = await seal(plaintext, device.push_public_key);
      if (device.token_kind === 'fcm') {
        // FCM data messages carry only string values.
        return { ...common, fcm_priority: priority, payload: { push_account_id: String(device.push_account_id), encrypted_data: encrypted } };
      }
      return {
        ...common,
        http_headers: { apns_priority: priority === 'high' ? 10 : 5, apns_push_type: priority === 'high' ? 'alert' : 'background' },
        payload: {
          push_account_id: device.push_account_id,
          encrypted_data: encrypted,
          aps: priority === 'high' ? { 'mutable-content': 1, alert: { title: 'New notification' }, sound: 'default' } : { 'content-available': 1 },
        },
      };
    }),
  );
  const answer = await postToBouncer(service, 'push/e2ee/notify', { realm_uuid: realmUuid(service, realmId), push_requests: pushRequests });
  const gone = Array.isArray(answer.delete_device_ids) ? (answer.delete_device_ids as unknown[]).filter((id): id is number => typeof id === 'number') : [];
  if (gone.length > 0) {
    await deps.knex.raw('DELETE FROM push_devices WHERE user_id = ? AND bouncer_device_id = ANY(?::bigint[])', [userId, listParam(gone, 'bigint')]);
  }
}
