import crypto from 'node:crypto';
import sodium from 'libsodium-wrappers';
import { assertSuccess, client } from '../helpers/api';
import type { TestServer, TestUser } from '../helpers/server';
import { waitUntil } from '../helpers/wait';
import { Bouncer, openPayload, tokenIdOf } from './bouncer';
import type { CapturedMail } from './smtp';

export const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

/** This server's registration at the push service. */
export interface ServiceKeys {
  orgId: string;
  orgKey: string;
}

export async function serviceKeys(): Promise<ServiceKeys> {
  return { orgId: crypto.randomUUID(), orgKey: crypto.randomBytes(24).toString('hex') };
}

/** The environment of a server whose mobile notifications go to the stand-in at `bouncerUrl`. */
export function pushServiceEnv(keys: ServiceKeys, bouncerUrl: string): Record<string, string> {
  return { PARLEY_PUSH_BOUNCER_URL: bouncerUrl, PARLEY_PUSH_BOUNCER_ORG_ID: keys.orgId, PARLEY_PUSH_BOUNCER_ORG_KEY: keys.orgKey };
}

/** The environment of a server that sends email to `smtpUrl` and mobile notifications to the stand-in. */
export function notificationEnv(keys: ServiceKeys, smtpUrl: string, bouncerUrl: string): Record<string, string> {
  return { SMTP_URL: smtpUrl, ...pushServiceEnv(keys, bouncerUrl) };
}

export interface Device {
  /** The client device (POST /register_client_device). */
  deviceId: number;
  token: string;
  /** The id the service files the token under, as the app derives it. */
  tokenId: string;
  /** The key the server encrypts the device's notifications with, as the app makes it, and its id. */
  pushKey: Uint8Array;
  pushKeyId: number;
}

let nextToken = 1000;

/** A push key as the app makes one: the secretbox tag byte (0x31), then 32 random bytes. */
export function newPushKey(): Uint8Array {
  return Uint8Array.from([0x31, ...crypto.randomBytes(32)]);
}

/** A registration as the app seals it for the push service. */
export function sealRegistration(bouncer: Bouncer, registration: unknown): string {
  return b64(sodium.crypto_box_seal(Buffer.from(typeof registration === 'string' ? registration : JSON.stringify(registration)), bouncer.publicKey));
}

/**
 * Registers an E2EE device for the user, as the app does: a client device (POST
 * /register_client_device), then its push key and FCM token (POST /mobile_push/register); waits
 * until the server has registered the token with the service.
 */
export async function registerDevice(ts: TestServer, who: TestUser, bouncer: Bouncer): Promise<Device> {
  await sodium.ready;
  const n = nextToken++;
  const token = `fcm-token-${n}`;
  const deviceId = assertSuccess(await client(ts, who).post('/register_client_device')).device_id as number;
  const device: Device = { deviceId, token, tokenId: tokenIdOf(token), pushKey: newPushKey(), pushKeyId: n };
  const registration = { token, token_kind: 'fcm', timestamp: Math.floor(Date.now() / 1000) };
  assertSuccess(
    await client(ts, who).post('/mobile_push/register', {
      device_id: deviceId,
      push_key: b64(device.pushKey),
      push_key_id: device.pushKeyId,
      token_kind: 'fcm',
      token_id: device.tokenId,
      bouncer_public_key: b64(bouncer.publicKey),
      encrypted_push_registration: sealRegistration(bouncer, registration),
    }),
  );
  await waitUntil(async () => (await ts.server.deps.knex('client_devices').where({ id: deviceId }).first())?.push_token_id === device.tokenId);
  return device;
}

/** Every E2EE payload the stand-in received for the device, decrypted. */
export async function e2eePayloads(bouncer: Bouncer, device: Device): Promise<any[]> {
  const out: any[] = [];
  for (const request of bouncer.requests) {
    if (!request.path.endsWith('/e2ee/notify')) continue;
    for (const push of request.body.push_requests) {
      if (push.token_id === device.tokenId) out.push(await openPayload(push.payload.encrypted_data, device.pushKey));
    }
  }
  return out;
}

export const messagePushes = async (bouncer: Bouncer, device: Device) => (await e2eePayloads(bouncer, device)).filter((p) => p.type === 'message');

export async function setSettings(ts: TestServer, who: TestUser, settings: Record<string, unknown>): Promise<void> {
  assertSuccess(await client(ts, who).patch('/settings', settings));
}

export async function setSubscription(ts: TestServer, who: TestUser, streamId: number, property: string, value: unknown): Promise<void> {
  assertSuccess(await client(ts, who).post('/users/me/subscriptions/properties', { subscription_data: [{ stream_id: streamId, property, value }] }));
}

export const mailsTo = (mails: CapturedMail[], who: TestUser) => mails.filter((m) => m.to.includes(who.email));

/** Waits until the push for `messageId` has reached the device. */
export async function waitForPush(bouncer: Bouncer, device: Device, messageId: number): Promise<any> {
  let found: any;
  await waitUntil(async () => {
    found = (await messagePushes(bouncer, device)).find((p) => p.message_id === messageId);
    return found !== undefined;
  });
  return found;
}

/**
 * Waits until the worker has decided every message up to `messageId` and nothing is left to deliver
 * to the user, then runs one more pass of each worker on each server: from then on nothing more comes for those
 * messages, so what has arrived is final (no fixed wait for what might still come).
 */
export async function waitForQuiet(servers: TestServer | TestServer[], who: TestUser, messageId: number): Promise<void> {
  const all = Array.isArray(servers) ? servers : [servers];
  const { knex, realmId } = all[0].server.deps;
  const quiet = async () => {
    const cursor = await knex('notification_cursors').where({ realm_id: realmId }).first();
    if (!cursor || Number(cursor.last_message_id) < messageId) return false;
    const gaps: [number, number][] = typeof cursor.gaps === 'string' ? JSON.parse(cursor.gaps) : cursor.gaps;
    if (gaps.some(([id]) => Number(id) === messageId)) return false;
    if ((await knex('notification_jobs').where({ user_id: who.id }).first()) !== undefined) return false;
    // Nor anything queued for delivery (the outbox) still waiting to be sent: due now, or being
    // retried. Onboarding emails queued for days later are not waited for.
    const waiting = await knex('deliveries')
      .where({ realm_id: realmId, state: 'pending' })
      .where((q) => q.where('attempts', '>', 0).orWhere('next_attempt_at', '<=', new Date()))
      .first();
    return waiting === undefined;
  };
  await waitUntil(quiet);
  for (const ts of all) await ts.server.notifications.runNow();
  for (const ts of all) await ts.server.outbox.runNow();
  await waitUntil(quiet);
}
