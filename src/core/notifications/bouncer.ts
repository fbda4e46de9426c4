import crypto from 'node:crypto';
import type { PushServiceConfig } from '../../config';
import { SERVICE_VERSION } from '../../version';

/**
 * Requests to Zulip's mobile push notification service ("the bouncer"): JSON POSTs under
 * /api/v1/remotes/push/, authenticated with the server's registration (HTTP Basic, its id and key).
 * As Zulip's server: a connection failure or a 5xx answer is worth retrying later; a 4xx answer is
 * final.
 */
export class BouncerError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

const TIMEOUT_MS = 30_000;

export async function postToBouncer(service: PushServiceConfig, endpoint: string, body: unknown): Promise<Record<string, unknown>> {
  const auth = Buffer.from(`${service.orgId}:${service.orgKey}`).toString('base64');
  let response: Response;
  try {
    response = await fetch(`${service.url}/api/v1/remotes/push/${endpoint}`, {
      method: 'POST',
      headers: { authorization: `Basic ${auth}`, 'content-type': 'application/json', 'user-agent': `ZulipServer/${SERVICE_VERSION}` },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    throw new BouncerError(`push service unreachable: ${(error as Error).name}`, true);
  }
  const text = await response.text().catch(() => '');
  if (response.status >= 500) throw new BouncerError(`push service answered ${response.status}`, true);
  let data: Record<string, unknown> = {};
  try {
    data = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // Not JSON: only the status says anything.
  }
  if (response.status >= 400) throw new BouncerError(`push service refused the request (${response.status}): ${String(data.msg ?? '')}`, false);
  if (response.status !== 200) throw new BouncerError(`push service answered ${response.status}`, true);
  return data;
}

/** The organization's id at the service: stable, derived from the server's registration. */
export function realmUuid(service: PushServiceConfig, realmId: number): string {
  const hex = crypto.createHash('sha256').update(`${service.orgId}:${realmId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
