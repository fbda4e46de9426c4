import crypto from 'node:crypto';
import type { PushServiceConfig } from '../../config';
import { SERVICE_VERSION } from '../../version';

/**
 * Requests to Zulip's mobile push notification service ("the bouncer"): POSTs under
 * /api/v1/remotes/ (push/... and server/analytics), authenticated with the server's registration (HTTP Basic, its id and key).
 * Registrations and the realm upload go as form fields, notifications as JSON, as Zulip's server sends them. As Zulip's
 * server: a connection failure or a 5xx answer is worth retrying later; a 4xx answer is final.
 */
export class BouncerError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    /** The service's error code (4xx answers), e.g. INVALID_ZULIP_SERVER. */
    readonly code: string | null = null,
    /** The service's own message (4xx answers). */
    readonly serviceMessage: string | null = null,
  ) {
    super(message);
  }
}

const TIMEOUT_MS = 30_000;

export type BouncerBody = Record<string, unknown>;

/** Service error codes that refuse this server (credentials, plan, organization), not the request: the operator's to fix. */
export const SERVER_REFUSAL_CODES = new Set([
  'INVALID_ZULIP_SERVER',
  'PUSH_NOTIFICATIONS_DISALLOWED',
  'MISSING_REMOTE_REALM',
  'REMOTE_REALM_SERVER_MISMATCH_ERROR',
]);

export async function postToBouncer(
  service: PushServiceConfig,
  endpoint: string,
  body: BouncerBody,
  encoding: 'json' | 'form' = 'json',
  /** An outbox item's key, sent as X-Parley-Delivery (the service's protocol has no field for it). */
  deliveryKey?: string,
): Promise<Record<string, unknown>> {
  const auth = Buffer.from(`${service.orgId}:${service.orgKey}`).toString('base64');
  const form = () => new URLSearchParams(Object.entries(body).map(([key, value]): [string, string] => [key, String(value)])).toString();
  let response: Response;
  try {
    response = await fetch(`${service.url}/api/v1/remotes/${endpoint}`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${auth}`,
        'content-type': encoding === 'json' ? 'application/json' : 'application/x-www-form-urlencoded',
        'user-agent': `ZulipServer/${SERVICE_VERSION}`,
        ...(deliveryKey ? { 'x-parley-delivery': deliveryKey } : {}),
      },
      body: encoding === 'json' ? JSON.stringify(body) : form(),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    const kind = (error as Error).name === 'TimeoutError' ? 'Timeout' : 'ConnectionError';
    throw new BouncerError(`${kind} while trying to connect to push notification bouncer`, true);
  }
  const text = await response.text().catch(() => '');
  if (response.status >= 500) throw new BouncerError(`Received ${response.status} from push notification bouncer`, true);
  let data: Record<string, unknown> = {};
  try {
    data = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // Not JSON: only the status says anything.
  }
  if (response.status >= 400) {
    const msg = typeof data.msg === 'string' ? data.msg : '';
    const code = typeof data.code === 'string' ? data.code : null;
    throw new BouncerError(`push service refused the request (${response.status}, ${code ?? 'no code'}): ${msg}`, false, code, msg);
  }
  if (response.status !== 200) throw new BouncerError(`Push notification bouncer returned unexpected status code ${response.status}`, true);
  return data;
}

/** A version-4 UUID shape made from a stable name: the same input always gives the same id. */
function stableUuid(name: string): string {
  const hex = crypto.createHash('sha256').update(name).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The organization's id at the service: stable, derived from the server's registration. */
export function realmUuid(service: PushServiceConfig, realmId: number): string {
  return stableUuid(`${service.orgId}:${realmId}`);
}

/** A user's id at the service (Zulip's user uuid), stable like the organization's. */
export function userUuid(service: PushServiceConfig, realmId: number, userId: number): string {
  return stableUuid(`${service.orgId}:${realmId}:user:${userId}`);
}
