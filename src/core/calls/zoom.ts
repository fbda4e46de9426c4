import type { ZoomConfig } from '../../config';
import { ApiError, errors } from '../../errors';
import { log } from '../../log';
import type { AppDeps } from '../deps';
import type { User } from '../users/model';
import { providerNotConfigured } from './providers';
import { createZoomUserCall } from './zoom-user-calls';
import { failedToCreateZoomCall, joinUrlOf, requestZoomMeeting, ZOOM, zoomClientAuthorization, zoomPost } from './zoom-meetings';

/**
 * Zoom calls through a server-to-server OAuth app (the per-user app is zoom-user-calls.ts), as
 * Zulip makes them: an account token from Zoom's OAuth endpoint (the `account_credentials` grant,
 * the app's id and secret as Basic credentials), kept until shortly before it expires, then a
 * meeting created for the Zoom user with the member's email address. The meeting's join URL is
 * the answer.
 */

/** Tokens last an hour; one is dropped four minutes early so none is used as it expires. */
const TOKEN_MARGIN_MS = 240_000;
const DEFAULT_TOKEN_LIFETIME_S = 3600;

interface HeldToken {
  token: Promise<string>;
  expiresAt: number;
}

/** Per configuration (so per server), the account token or the request for one under way. */
const tokens = new WeakMap<ZoomConfig, HeldToken>();

const unknownZoomUser = () => new ApiError('UNKNOWN_ZOOM_USER', 'Unknown Zoom user email', 400);

async function requestToken(zoom: ZoomConfig, accountId: string, held: HeldToken): Promise<string> {
  const answer = await zoomPost(`${zoom.oauthUrl}/oauth/token`, {
    headers: { authorization: zoomClientAuthorization(zoom), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'account_credentials', account_id: accountId }).toString(),
  });
  // A wrong account id or client credentials.
  if (!answer.ok) throw errors.badRequest(`Invalid ${ZOOM} credentials`);
  const { access_token, expires_in } = (answer.body ?? {}) as { access_token?: unknown; expires_in?: unknown };
  if (typeof access_token !== 'string' || access_token === '') throw failedToCreateZoomCall();
  const lifetime = typeof expires_in === 'number' && expires_in > 0 ? expires_in : DEFAULT_TOKEN_LIFETIME_S;
  held.expiresAt = Date.now() + lifetime * 1000 - TOKEN_MARGIN_MS;
  return access_token;
}

/** The account token; concurrent callers share one request, and a failed request is not kept. */
function accountToken(zoom: ZoomConfig, accountId: string): Promise<string> {
  const current = tokens.get(zoom);
  if (current && Date.now() < current.expiresAt) return current.token;
  const held: HeldToken = { token: Promise.resolve(''), expiresAt: Number.POSITIVE_INFINITY };
  held.token = requestToken(zoom, accountId, held);
  tokens.set(zoom, held);
  held.token.catch(() => {
    if (tokens.get(zoom) === held) tokens.delete(zoom);
  });
  return held.token;
}

/** POST /calls/zoom/create: a meeting from whichever Zoom app is configured. */
export async function createZoomCall(deps: AppDeps, user: User, options: { isVideoCall: boolean }): Promise<{ url: string }> {
  const zoom = deps.config.zoom;
  if (!zoom) throw providerNotConfigured(ZOOM);
  if (zoom.accountId === null) return createZoomUserCall(deps, zoom, user, options);
  const token = await accountToken(zoom, zoom.accountId);
  const answer = await requestZoomMeeting(zoom, user.delivery_email, token, options.isVideoCall);
  if (!answer.ok) {
    const code = (answer.body as { code?: unknown } | null)?.code;
    // "User does not exist": the member has no Zoom account under that address.
    if (code === 1001) throw unknownZoomUser();
    // An invalid or expired token, though expiry is tracked: the next call gets a new one.
    if (code === 124) {
      log().error({ zoomCode: code }, 'Zoom refused the account token');
      tokens.delete(zoom);
    }
    throw failedToCreateZoomCall();
  }
  return joinUrlOf(answer);
}
