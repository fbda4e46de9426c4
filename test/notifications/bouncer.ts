import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sodium from 'libsodium-wrappers';
import { parseAppPayload } from './app-payloads';

/**
 * A stand-in for Zulip's push notification service on loopback. Like the real service it holds
 * the key pair the apps seal their E2EE registrations to, opens them itself (remotes/push/e2ee/
 * register, filing the token under the token_id the app derived from it), keeps the legacy tokens servers register for their users
 * (remotes/push/register, unregister, unregister/all) and takes notifications for either (e2ee/notify naming token
 * ids, notify naming the user). It learns of a server's organizations from their upload
 * (remotes/server/analytics) and, as the service does, refuses E2EE registrations and
 * notifications for an organization it has not been told of (MISSING_REMOTE_REALM; the legacy
 * endpoints take an unknown organization). It records each request (path, credentials, content type,
 * body), notes where a request departs from what the service takes, and answers as the service
 * does, or with the failure a test asks for.
 */
export interface BouncerRequest {
  path: string;
  authorization: string;
  contentType: string;
  body: any;
  /** The outbox item's key (X-Parley-Delivery), when the request is one. */
  delivery: string | null;
}

/** A legacy token as a server registered it. */
export interface ServiceToken {
  userId: string | null;
  userUuid: string | null;
  realmUuid: string | null;
  token: string;
  tokenKind: number;
  iosAppId: string | null;
}

/** An E2EE device the service registered from an app's sealed registration, known by its token's id. */
export interface ServiceDevice {
  tokenId: string;
  realmUuid: string;
  token: string;
  tokenKind: 'fcm' | 'apns';
  iosAppId: string | null;
}

/** An organization as a server uploaded it (Zulip's RealmDataForAnalytics). */
export interface ServiceRealm {
  id: number;
  uuid: string;
  uuid_owner_secret: string;
  host: string;
  url: string;
  name: string;
  org_type: number;
  date_created: number;
  deactivated: boolean;
  is_system_bot_realm: boolean;
  authentication_methods: Record<string, boolean>;
}

/** A failure to answer with: a status alone (5xx), or a refusal with the service's code and message. */
export type Failure = number | { status: number; code: string; msg: string };

export interface Bouncer {
  url: string;
  /** The service's public key (the apps seal registrations to it). */
  publicKey: Uint8Array;
  requests: BouncerRequest[];
  tokens: ServiceToken[];
  devices: ServiceDevice[];
  /** Organizations servers uploaded, the latest upload of each. */
  realms: ServiceRealm[];
  /** Answers to give, one per request, before answering as the service again. */
  failWith: Failure[];
  /** Every way a request differed from what the service accepts; a test expects none. */
  violations: string[];
  close(): Promise<void>;
}

/** How long after sealing a registration the service accepts it, as Zulip's does. */
const REGISTRATION_LIFETIME_SECONDS = 24 * 60 * 60;

/** The id the apps derive from their FCM/APNs token: base64 of the first 8 bytes of its SHA-256. */
export const tokenIdOf = (token: string) => crypto.createHash('sha256').update(token).digest().subarray(0, 8).toString('base64');

export async function startBouncer(): Promise<Bouncer> {
  await sodium.ready;
  const keys = sodium.crypto_box_keypair();
  const requests: BouncerRequest[] = [];
  const tokens: ServiceToken[] = [];
  const devices: ServiceDevice[] = [];
  const realms: ServiceRealm[] = [];
  const failWith: Failure[] = [];
  const violations: string[] = [];

  const refuse = (code: string, msg: string) => ({ status: 400, body: { result: 'error', msg, code } });
  const ok = (data: Record<string, unknown> = {}) => ({ status: 200, body: { result: 'success', msg: '', ...data } });

  function answer(request: BouncerRequest): { status: number; body: Record<string, unknown> } {
    const { path, body } = request;
    if (path === '/api/v1/remotes/server/analytics') return uploadRealms(body);
    const e2ee = path === '/api/v1/remotes/push/e2ee/register' || path === '/api/v1/remotes/push/e2ee/notify';
    if (e2ee && !realms.some((r) => r.uuid === body.realm_uuid))
      return { status: 403, body: { result: 'error', msg: 'Organization not registered', code: 'MISSING_REMOTE_REALM' } };
    if (path === '/api/v1/remotes/push/register') {
      const token: ServiceToken = {
        userId: body.user_id ?? null,
        userUuid: body.user_uuid ?? null,
        realmUuid: body.realm_uuid ?? null,
        token: body.token,
        tokenKind: Number(body.token_kind),
        iosAppId: body.ios_app_id ?? null,
      };
      if (!tokens.some((t) => t.userUuid === token.userUuid && t.token === token.token && t.tokenKind === token.tokenKind)) tokens.push(token);
      return ok();
    }
    if (path === '/api/v1/remotes/push/unregister') {
      const index = tokens.findIndex((t) => t.userUuid === body.user_uuid && t.token === body.token && t.tokenKind === Number(body.token_kind));
      if (index < 0) return refuse('BAD_REQUEST', 'Token does not exist');
      tokens.splice(index, 1);
      return ok();
    }
    if (path === '/api/v1/remotes/push/unregister/all') {
      // Every token of the user, registered under their id or their uuid.
      for (let i = tokens.length - 1; i >= 0; i--) if (tokens[i].userUuid === body.user_uuid || tokens[i].userId === body.user_id) tokens.splice(i, 1);
      return ok();
    }
    if (path === '/api/v1/remotes/push/e2ee/register') return registerDevice(body);
    if (path === '/api/v1/remotes/push/e2ee/notify') {
      const sent = (kind: string) => (body.push_requests ?? []).filter((p: any) => devices.find((d) => d.tokenId === p.token_id)?.tokenKind === kind).length;
      const unknown = (body.push_requests ?? []).map((p: any) => p.token_id).filter((id: string) => !devices.some((d) => d.tokenId === id));
      return ok({ android_successfully_sent_count: sent('fcm'), apple_successfully_sent_count: sent('apns'), delete_token_ids: unknown });
    }
    if (path === '/api/v1/remotes/push/test_notification') {
      const known = tokens.some((t) => t.userUuid === body.user_uuid && t.token === body.token && t.tokenKind === Number(body.token_kind));
      return known ? ok() : refuse('INVALID_REMOTE_PUSH_DEVICE_TOKEN', 'Device not recognized by the push bouncer');
    }
    const mine = tokens.filter((t) => t.userUuid === body.user_uuid);
    const known = (list: unknown, kind: number) =>
      (Array.isArray(list) ? list : []).filter((token) => !mine.some((t) => t.token === token && t.tokenKind === kind));
    return ok({
      total_android_devices: mine.filter((t) => t.tokenKind === 2).length,
      total_apple_devices: mine.filter((t) => t.tokenKind === 1).length,
      deleted_devices: { android_devices: known(body.android_devices, 2), apple_devices: known(body.apple_devices, 1) },
    });
  }

  /** Records the uploaded organizations; answers with whether each may push, as the service does. */
  function uploadRealms(body: any): { status: number; body: Record<string, unknown> } {
    let uploaded: ServiceRealm[];
    try {
      uploaded = JSON.parse(body.realms);
    } catch {
      return refuse('BAD_REQUEST', 'realms is not valid JSON');
    }
    const answered: Record<string, unknown> = {};
    for (const realm of uploaded) {
      const index = realms.findIndex((r) => r.uuid === realm.uuid);
      if (index >= 0) realms.splice(index, 1);
      realms.push(realm);
      answered[realm.uuid] = { can_push: true, expected_end_timestamp: null };
    }
    return ok({ realms: answered });
  }

  /** Opens the app's sealed registration with the service's key pair, as the service does. */
  function registerDevice(body: any): { status: number; body: Record<string, unknown> } {
    if (body.bouncer_public_key !== Buffer.from(keys.publicKey).toString('base64')) return refuse('INVALID_BOUNCER_PUBLIC_KEY', 'Invalid bouncer_public_key');
    const invalid = refuse('INVALID_ENCRYPTED_PUSH_REGISTRATION', 'Invalid encrypted_push_registration');
    let registration: any;
    try {
      const opened = sodium.crypto_box_seal_open(Buffer.from(String(body.encrypted_push_registration), 'base64'), keys.publicKey, keys.privateKey);
      registration = JSON.parse(Buffer.from(opened).toString('utf8'));
    } catch {
      return invalid;
    }
    if (!isValidRegistration(registration)) return invalid;
    // The token id must be the one the app derives from the token it sealed.
    if (body.token_id !== tokenIdOf(registration.token)) return invalid;
    if (Math.floor(Date.now() / 1000) - registration.timestamp > REGISTRATION_LIFETIME_SECONDS) return refuse('REQUEST_EXPIRED', 'Request expired');
    if (devices.some((d) => d.tokenId === body.token_id && d.realmUuid === body.realm_uuid)) return ok();
    const device: ServiceDevice = {
      tokenId: body.token_id,
      realmUuid: body.realm_uuid,
      token: registration.token,
      tokenKind: registration.token_kind,
      iosAppId: registration.ios_app_id ?? null,
    };
    devices.push(device);
    return ok();
  }

  const server = http.createServer((req, res) => {
    let data = '';
    req.on('data', (chunk) => (data += chunk));
    req.on('end', () => {
      const contentType = req.headers['content-type'] ?? '';
      const body = contentType.startsWith('application/x-www-form-urlencoded') ? Object.fromEntries(new URLSearchParams(data)) : JSON.parse(data || '{}');
      const delivery = req.headers['x-parley-delivery'];
      const request = {
        path: req.url ?? '',
        authorization: req.headers.authorization ?? '',
        contentType,
        body,
        delivery: typeof delivery === 'string' ? delivery : null,
      };
      requests.push(request);
      for (const problem of checkRequest(request, devices)) violations.push(`${request.path}: ${problem}`);
      const failure = failWith.shift();
      let reply: { status: number; body: Record<string, unknown> };
      if (failure === undefined) reply = answer(request);
      else if (typeof failure === 'number') reply = { status: failure, body: { result: 'error', msg: 'Service failure', code: 'BAD_REQUEST' } };
      else reply = { status: failure.status, body: { result: 'error', msg: failure.msg, code: failure.code } };
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    publicKey: keys.publicKey,
    requests,
    tokens,
    devices,
    realms,
    failWith,
    violations,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The registration the apps seal: token, kind, timestamp, and for APNs the app id (Zulip's checks). */
function isValidRegistration(r: any): boolean {
  if (!isObject(r) || typeof r.token !== 'string' || r.token === '' || r.token.length > 4096) return false;
  if (!Number.isInteger(r.timestamp)) return false;
  if (r.token_kind === 'apns') return typeof r.ios_app_id === 'string' && /^(?:[0-9a-fA-F]{2})+$/.test(r.token);
  return r.token_kind === 'fcm' && (r.ios_app_id === undefined || r.ios_app_id === null);
}

/**
 * Opens an E2EE payload as the app does, with the push key the device registered (a tag byte, then
 * the secretbox key; the payload is the nonce followed by the box), and reads it as the app does:
 * a payload the app could not read fails here.
 */
export async function openPayload(encrypted: string, pushKey: Uint8Array): Promise<any> {
  const json = await decryptPayload(encrypted, pushKey);
  parseAppPayload(json);
  return json;
}

/** The JSON of an E2EE payload, opened with the device's push key. */
export async function decryptPayload(encrypted: string, pushKey: Uint8Array): Promise<any> {
  await sodium.ready;
  const data = Buffer.from(encrypted, 'base64');
  const nonce = data.subarray(0, sodium.crypto_secretbox_NONCEBYTES);
  const plain = sodium.crypto_secretbox_open_easy(data.subarray(sodium.crypto_secretbox_NONCEBYTES), nonce, pushKey.subarray(1));
  return JSON.parse(Buffer.from(plain).toString('utf8'));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const isObject = (v: unknown): v is Record<string, any> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStringList = (v: unknown) => Array.isArray(v) && v.every((t) => typeof t === 'string');
const isIntText = (v: unknown) => typeof v === 'string' && /^-?\d+$/.test(v);

/** Where a request departs from what the service's endpoints take. */
function checkRequest({ path, authorization, contentType, body }: BouncerRequest, devices: ServiceDevice[]): string[] {
  const problems: string[] = [];
  const form = contentType.startsWith('application/x-www-form-urlencoded');
  if (!authorization.startsWith('Basic ')) problems.push('no HTTP Basic credentials');
  if (path === '/api/v1/remotes/server/analytics') return [...problems, ...checkUpload(body, form)];
  if (typeof body.realm_uuid !== 'string' || !UUID.test(body.realm_uuid)) problems.push('realm_uuid is not a UUID');
  if (path === '/api/v1/remotes/push/register' || path === '/api/v1/remotes/push/unregister') {
    if (!form) problems.push('not form fields');
    if (!isIntText(body.user_id) || typeof body.user_uuid !== 'string' || !UUID.test(body.user_uuid)) problems.push('user_id or user_uuid missing');
    if (typeof body.token !== 'string' || body.token === '') problems.push('no token');
    if (!['1', '2'].includes(body.token_kind)) problems.push('token_kind is not 1 (APNs) or 2 (FCM)');
    if (path.endsWith('/register') && (body.token_kind === '1') !== (typeof body.ios_app_id === 'string'))
      problems.push('ios_app_id goes with APNs tokens only');
  } else if (path === '/api/v1/remotes/push/unregister/all') {
    if (!form) problems.push('not form fields');
    if (!isIntText(body.user_id) || typeof body.user_uuid !== 'string' || !UUID.test(body.user_uuid)) problems.push('user_id or user_uuid missing');
  } else if (path === '/api/v1/remotes/push/e2ee/register') {
    if (!form) problems.push('not form fields');
    if (typeof body.token_id !== 'string' || !BASE64.test(body.token_id) || Buffer.from(body.token_id, 'base64').length !== 8)
      problems.push('token_id is not base64 of 8 bytes');
    if ('push_account_id' in body) problems.push('push_account_id is gone since feature level 468');
    for (const field of ['encrypted_push_registration', 'bouncer_public_key']) if (typeof body[field] !== 'string') problems.push(`no ${field}`);
  } else if (path === '/api/v1/remotes/push/e2ee/notify') {
    if (form) problems.push('not JSON');
    if (!Array.isArray(body.push_requests) || body.push_requests.length === 0) return [...problems, 'no push_requests'];
    for (const push of body.push_requests) problems.push(...checkPushRequest(push, devices));
  } else if (path === '/api/v1/remotes/push/notify') {
    if (form) problems.push('not JSON');
    if (!Number.isInteger(body.user_id)) problems.push('user_id is not an integer');
    // The service requires the user's uuid from servers that send realm_uuid.
    if (typeof body.user_uuid !== 'string' || !UUID.test(body.user_uuid)) problems.push('user_uuid is not a UUID');
    if (!isStringList(body.android_devices) || !isStringList(body.apple_devices)) problems.push('device lists are not lists of tokens');
    if (!isObject(body.gcm_payload) || !isObject(body.apns_payload)) problems.push('gcm_payload or apns_payload missing');
    if (!['high', 'normal'].includes(body.gcm_options?.priority)) problems.push('gcm_options.priority is not high or normal');
  } else if (path === '/api/v1/remotes/push/test_notification') {
    if (form) problems.push('not JSON');
    if (!Number.isInteger(body.user_id) || typeof body.user_uuid !== 'string' || !UUID.test(body.user_uuid)) problems.push('user_id or user_uuid missing');
    if (typeof body.token !== 'string' || body.token === '') problems.push('no token');
    if (![1, 2].includes(body.token_kind)) problems.push('token_kind is not 1 (APNs) or 2 (FCM)');
    if (!isObject(body.base_payload)) problems.push('base_payload missing');
  } else {
    problems.push('not an endpoint of the service');
  }
  return problems;
}

/** JSON-encoded form values, as the service reads them (pydantic Json[...]). */
function parseJson(value: unknown): { ok: true; value: unknown } | { ok: false } {
  if (typeof value !== 'string') return { ok: false };
  try {
    return { ok: true, value: JSON.parse(value) };
  } catch {
    return { ok: false };
  }
}

const REALM_FIELDS = [
  'id',
  'uuid',
  'uuid_owner_secret',
  'host',
  'url',
  'name',
  'org_type',
  'date_created',
  'deactivated',
  'is_system_bot_realm',
  'authentication_methods',
];
const ORG_TYPES = [0, 10, 20, 30, 35, 40, 50, 60, 70, 80, 90, 100, 1000];
const UUID4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The upload of a server's organizations: form fields with JSON values; realms forbid unknown fields. */
function checkUpload(body: any, form: boolean): string[] {
  const problems: string[] = [];
  if (!form) problems.push('not form fields');
  for (const field of ['realm_counts', 'installation_counts', 'realms']) {
    const parsed = parseJson(body[field]);
    if (!parsed.ok || !Array.isArray(parsed.value)) problems.push(`${field} is not a JSON list`);
  }
  for (const field of ['realmauditlog_rows', 'merge_base']) if (field in body && !parseJson(body[field]).ok) problems.push(`${field} is not JSON`);
  const version = parseJson(body.version);
  if ('version' in body && !(version.ok && typeof version.value === 'string')) problems.push('version is not a JSON string');
  const level = parseJson(body.api_feature_level);
  if ('api_feature_level' in body && !(level.ok && Number.isInteger(level.value))) problems.push('api_feature_level is not a JSON integer');
  const realms = parseJson(body.realms);
  if (!realms.ok || !Array.isArray(realms.value)) return problems;
  for (const realm of realms.value as any[]) {
    if (!isObject(realm)) {
      problems.push('a realm is not an object');
      continue;
    }
    for (const key of Object.keys(realm)) if (!REALM_FIELDS.includes(key)) problems.push(`realm field ${key} is not one the service takes`);
    if (!Number.isInteger(realm.id)) problems.push('realm id is not an integer');
    if (typeof realm.uuid !== 'string' || !UUID4.test(realm.uuid)) problems.push('realm uuid is not a version-4 UUID');
    for (const field of ['uuid_owner_secret', 'host', 'url'])
      if (typeof realm[field] !== 'string' || realm[field] === '') problems.push(`realm ${field} missing`);
    if ('name' in realm && typeof realm.name !== 'string') problems.push('realm name is not a string');
    if ('org_type' in realm && !ORG_TYPES.includes(realm.org_type)) problems.push('realm org_type is not a valid value');
    if (typeof realm.date_created !== 'number') problems.push('realm date_created is not a number');
    if (typeof realm.deactivated !== 'boolean') problems.push('realm deactivated is not a boolean');
    if ('is_system_bot_realm' in realm && typeof realm.is_system_bot_realm !== 'boolean') problems.push('realm is_system_bot_realm is not a boolean');
    const methods = realm.authentication_methods;
    if ('authentication_methods' in realm && (!isObject(methods) || !Object.values(methods).every((v) => typeof v === 'boolean')))
      problems.push('realm authentication_methods is not a map of booleans');
  }
  return problems;
}

/**
 * One E2EE push request, naming a device the service registered by its token id: FCM data messages carry string
 * values only (the service hands the payload to FCM as it is); APNs payloads are JSON with an
 * `aps` dictionary, with their priority and push type.
 */
function checkPushRequest(push: any, devices: ServiceDevice[]): string[] {
  const problems: string[] = [];
  const device = devices.find((d) => d.tokenId === push.token_id);
  if (!device) return ['token_id is not a token the service registered'];
  if ('device_id' in push) problems.push('device_id is gone since feature level 468');
  if ('token' in push || 'token_kind' in push) problems.push('a token the server cannot know');
  const payload = push.payload;
  if (!isObject(payload)) return [...problems, 'payload missing'];
  if (typeof payload.encrypted_data !== 'string' || !BASE64.test(payload.encrypted_data)) problems.push('encrypted_data is not base64');
  if (device.tokenKind === 'fcm') {
    if (!['high', 'normal'].includes(push.fcm_priority)) problems.push('fcm_priority is not high or normal');
    if ('http_headers' in push) problems.push('an FCM request with APNs headers');
    for (const [key, value] of Object.entries(payload)) if (typeof value !== 'string') problems.push(`FCM data value ${key} is not a string`);
    if (!isIntText(payload.push_key_id)) problems.push('push_key_id is not an integer in a string');
  } else {
    if ('fcm_priority' in push) problems.push('an APNs request with fcm_priority');
    if (!isObject(push.http_headers) || ![5, 10].includes(push.http_headers.apns_priority)) problems.push('apns_priority is not 5 or 10');
    if (!['alert', 'background'].includes(push.http_headers?.apns_push_type)) problems.push('apns_push_type is not alert or background');
    if (!isObject(payload.aps)) problems.push('no aps dictionary');
    if (!Number.isInteger(payload.push_key_id)) problems.push('push_key_id is not an integer');
  }
  return problems;
}
