import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sodium from 'libsodium-wrappers';
import { parseAppPayload } from './app-payloads';

/**
 * A stand-in for Zulip's push notification service on loopback: it records each request (path,
 * credentials, JSON body), notes where a request departs from the shape the service takes, and
 * answers as the service does, or with the status a test asks for.
 */
export interface BouncerRequest {
  path: string;
  authorization: string;
  body: any;
}

export interface Bouncer {
  url: string;
  requests: BouncerRequest[];
  /** Statuses to answer with, one per request, before answering 200 again. */
  failWith: number[];
  /** Every way a request differed from what the service accepts; a test expects none. */
  violations: string[];
  close(): Promise<void>;
}

export async function startBouncer(): Promise<Bouncer> {
  const requests: BouncerRequest[] = [];
  const failWith: number[] = [];
  const violations: string[] = [];
  const server = http.createServer((req, res) => {
    let data = '';
    req.on('data', (chunk) => (data += chunk));
    req.on('end', () => {
      const request = { path: req.url ?? '', authorization: req.headers.authorization ?? '', body: JSON.parse(data || '{}') };
      requests.push(request);
      for (const problem of checkRequest(request)) violations.push(`${request.path}: ${problem}`);
      const status = failWith.shift() ?? 200;
      res.writeHead(status, { 'content-type': 'application/json' });
      if (status !== 200) {
        res.end(JSON.stringify({ result: 'error', msg: 'Service failure', code: 'BAD_REQUEST' }));
      } else if (req.url?.endsWith('/e2ee/notify')) {
        res.end(JSON.stringify({ result: 'success', msg: '', android_successfully_sent_count: 1, apple_successfully_sent_count: 0, delete_device_ids: [] }));
      } else {
        res.end(
          JSON.stringify({
            result: 'success',
            msg: '',
            total_android_devices: 1,
            total_apple_devices: 0,
            deleted_devices: { android_devices: [], apple_devices: [] },
          }),
        );
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failWith,
    violations,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Opens an E2EE payload with the device's key pair (the key it registered as push_public_key) and
 * reads it as the app does: a payload the app could not read fails here.
 */
export async function openPayload(encrypted: string, keys: { publicKey: Uint8Array; privateKey: Uint8Array }): Promise<any> {
  await sodium.ready;
  const plain = sodium.crypto_box_seal_open(Buffer.from(encrypted, 'base64'), keys.publicKey, keys.privateKey);
  const json = JSON.parse(Buffer.from(plain).toString('utf8'));
  parseAppPayload(json);
  return json;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const isObject = (v: unknown): v is Record<string, any> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStringList = (v: unknown) => Array.isArray(v) && v.every((t) => typeof t === 'string');

/** Where a request departs from what the service's endpoints take. */
function checkRequest({ path, authorization, body }: BouncerRequest): string[] {
  const problems: string[] = [];
  if (!authorization.startsWith('Basic ')) problems.push('no HTTP Basic credentials');
  if (typeof body.realm_uuid !== 'string' || !UUID.test(body.realm_uuid)) problems.push('realm_uuid is not a UUID');
  if (path === '/api/v1/remotes/push/e2ee/notify') {
    if (!Array.isArray(body.push_requests) || body.push_requests.length === 0) return [...problems, 'no push_requests'];
    for (const push of body.push_requests) problems.push(...checkPushRequest(push));
  } else if (path === '/api/v1/remotes/push/notify') {
    if (!Number.isInteger(body.user_id)) problems.push('user_id is not an integer');
    if (!isStringList(body.android_devices) || !isStringList(body.apple_devices)) problems.push('device lists are not lists of tokens');
    if (!isObject(body.gcm_payload) || !isObject(body.apns_payload)) problems.push('gcm_payload or apns_payload missing');
    if (!['high', 'normal'].includes(body.gcm_options?.priority)) problems.push('gcm_options.priority is not high or normal');
  } else {
    problems.push('not an endpoint of the service');
  }
  return problems;
}

/**
 * One E2EE push request: FCM data messages carry string values only (the service hands the
 * payload to FCM as it is); APNs payloads are JSON with an `aps` dictionary and their headers.
 */
function checkPushRequest(push: any): string[] {
  const problems: string[] = [];
  if (!Number.isInteger(push.device_id)) problems.push('device_id is not an integer');
  const payload = push.payload;
  if (!isObject(payload)) return [...problems, 'payload missing'];
  if (typeof payload.encrypted_data !== 'string' || !BASE64.test(payload.encrypted_data)) problems.push('encrypted_data is not base64');
  if (push.token_kind === 'fcm') {
    if (!['high', 'normal'].includes(push.fcm_priority)) problems.push('fcm_priority is not high or normal');
    if ('http_headers' in push) problems.push('an FCM request with APNs headers');
    for (const [key, value] of Object.entries(payload)) if (typeof value !== 'string') problems.push(`FCM data value ${key} is not a string`);
    if (!/^\d+$/.test(payload.push_account_id ?? '')) problems.push('push_account_id is not a decimal integer');
  } else if (push.token_kind === 'apns') {
    if ('fcm_priority' in push) problems.push('an APNs request with fcm_priority');
    if (!isObject(push.http_headers) || ![5, 10].includes(push.http_headers['apns-priority'])) problems.push('apns-priority is not 5 or 10');
    if (!['alert', 'background'].includes(push.http_headers?.['apns-push-type'])) problems.push('apns-push-type is not alert or background');
    if (!isObject(payload.aps)) problems.push('no aps dictionary');
    if (!Number.isInteger(payload.push_account_id)) problems.push('push_account_id is not an integer');
  } else {
    problems.push('token_kind is not fcm or apns');
  }
  return problems;
}
