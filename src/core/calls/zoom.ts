import type { ZoomConfig } from '../../config';
import { ApiError, errors } from '../../errors';
import { log } from '../../log';
import type { AppDeps } from '../deps';
import type { User } from '../users/model';
import { failureReason, PROVIDER_TIMEOUT_MS, providerNotConfigured, providerUnreachable } from './providers';

/**
 * Zoom calls through a server-to-server OAuth app, as Zulip makes them: an account token from
 * Zoom's OAuth endpoint (the `account_credentials` grant, the app's id and secret as Basic
 * credentials), kept until shortly before it expires, then a meeting created for the Zoom user
 * with the member's email address. The meeting's join URL is the answer.
 */
const PROVIDER = 'Zoom';

/** Tokens last an hour; one is dropped four minutes early so none is used as it expires. */
const TOKEN_MARGIN_MS = 240_000;
const DEFAULT_TOKEN_LIFETIME_S = 3600;

interface HeldToken {
  token: Promise<string>;
  expiresAt: number;
}

/** Per configuration (so per server), the account token or the request for one under way. */
const tokens = new WeakMap<ZoomConfig, HeldToken>();

const failedToCreate = () => errors.badRequest(`Failed to create ${PROVIDER} call`);
const unknownZoomUser = () => new ApiError('UNKNOWN_ZOOM_USER', 'Unknown Zoom user email', 400);

async function requestToken(zoom: ZoomConfig, held: HeldToken): Promise<string> {
  let response: Response;
  let body: unknown;
  try {
    response = await fetch(`${zoom.oauthUrl}/oauth/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${zoom.clientId}:${zoom.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ grant_type: 'account_credentials', account_id: zoom.accountId }).toString(),
      signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
      redirect: 'error',
    });
    body = await response.json().catch(() => null);
  } catch (error) {
    throw providerUnreachable(PROVIDER, failureReason(error));
  }
  // A wrong account id or client credentials.
  if (!response.ok) throw errors.badRequest(`Invalid ${PROVIDER} credentials`);
  const { access_token, expires_in } = (body ?? {}) as { access_token?: unknown; expires_in?: unknown };
  if (typeof access_token !== 'string' || access_token === '') throw failedToCreate();
  const lifetime = typeof expires_in === 'number' && expires_in > 0 ? expires_in : DEFAULT_TOKEN_LIFETIME_S;
  held.expiresAt = Date.now() + lifetime * 1000 - TOKEN_MARGIN_MS;
  return access_token;
}

/** The account token; concurrent callers share one request, and a failed request is not kept. */
function accountToken(zoom: ZoomConfig): Promise<string> {
  const current = tokens.get(zoom);
  if (current && Date.now() < current.expiresAt) return current.token;
  const held: HeldToken = { token: Promise.resolve(''), expiresAt: Number.POSITIVE_INFINITY };
  held.token = requestToken(zoom, held);
  tokens.set(zoom, held);
  held.token.catch(() => {
    if (tokens.get(zoom) === held) tokens.delete(zoom);
  });
  return held.token;
}

export async function createZoomCall(deps: AppDeps, user: User, options: { isVideoCall: boolean }): Promise<{ url: string }> {
  const zoom = deps.config.zoom;
  if (!zoom) throw providerNotConfigured(PROVIDER);
  const token = await accountToken(zoom);
  let response: Response;
  let body: unknown;
  try {
    response = await fetch(`${zoom.apiUrl}/v2/users/${encodeURIComponent(user.delivery_email)}/meetings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        // The host's choice of cameras on or off at the start, for everyone (a voice call: off).
        settings: { host_video: options.isVideoCall, participant_video: options.isVideoCall },
        // A password in the join URL; without one, organizations that require authentication
        // force a waiting room.
        default_password: true,
      }),
      signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
      redirect: 'error',
    });
    body = await response.json().catch(() => null);
  } catch (error) {
    throw providerUnreachable(PROVIDER, failureReason(error));
  }
  if (!response.ok) {
    const code = (body as { code?: unknown } | null)?.code;
    // "User does not exist": the member has no Zoom account under that address.
    if (code === 1001) throw unknownZoomUser();
    // An invalid or expired token, though expiry is tracked: the next call gets a new one.
    if (code === 124) {
      log().error({ zoomCode: code }, 'Zoom refused the account token');
      tokens.delete(zoom);
    }
    throw failedToCreate();
  }
  const joinUrl = (body as { join_url?: unknown } | null)?.join_url;
  if (typeof joinUrl !== 'string' || !/^https?:\/\//.test(joinUrl)) throw failedToCreate();
  return { url: joinUrl };
}
