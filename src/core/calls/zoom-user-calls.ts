import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ZoomConfig } from '../../config';
import { ApiError, errors } from '../../errors';
import type { AppDeps } from '../deps';
import type { User } from '../users/model';
import { providerNotConfigured } from './providers';
import { failedToCreateZoomCall, joinUrlOf, requestZoomMeeting, ZOOM, zoomClientAuthorization, zoomPost } from './zoom-meetings';
import { setZoomToken, zoomTokenOf, type ZoomUserToken } from './zoom-tokens';

/**
 * Zoom's per-user OAuth app, as Zulip runs it: a member connects their Zoom account in the
 * browser (register → Zoom's consent page → complete), and their calls are then meetings of their
 * own Zoom user, made with their token and refreshed with its refresh token when it expires. A
 * token Zoom no longer accepts is forgotten, and the member is asked to connect again.
 */

/** Tokens are refreshed a minute before Zoom says they expire. */
const REFRESH_MARGIN_MS = 60_000;
/** How long a consent round trip may take. */
const STATE_LIFETIME_MS = 3_600_000;

export const invalidZoomToken = () => new ApiError('INVALID_VIDEO_CALL_PROVIDER_TOKEN', `Invalid ${ZOOM} access token`, 400);
const invalidSession = () => errors.badRequest(`Invalid ${ZOOM} session identifier`);
const invalidCredentials = () => errors.badRequest(`Invalid ${ZOOM} credentials`);

/** The per-user app, or the error for a server without it (none, or the server-to-server app). */
function userOAuthApp(deps: AppDeps): ZoomConfig {
  const zoom = deps.config.zoom;
  if (!zoom || zoom.accountId !== null) throw providerNotConfigured(ZOOM);
  return zoom;
}

const keyOf = (zoom: ZoomConfig, purpose: string) => createHmac('sha256', zoom.clientSecret).update(`parley zoom ${purpose}`).digest();
const mac = (zoom: ZoomConfig, purpose: string, text: string) => createHmac('sha256', keyOf(zoom, purpose)).update(text).digest('base64url');

/** Ties a consent round trip to the browser session that began it, without revealing the session. */
const sessionId = (zoom: ZoomConfig, sessionSecret: string) => mac(zoom, 'session id', sessionSecret);

function equalText(a: string, b: string): boolean {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Zoom sends users back here; the app's redirect URL registered with Zoom must be this one. */
const redirectUri = (deps: AppDeps) => `${deps.config.externalUrl}/calls/zoom/complete`;

/** GET /calls/zoom/register: Zoom's consent page, with a signed state naming the member and session. */
export function zoomAuthorizeUrl(deps: AppDeps, user: User, sessionSecret: string): string {
  const zoom = userOAuthApp(deps);
  const payload = Buffer.from(JSON.stringify({ realm: deps.realmId, user: user.id, sid: sessionId(zoom, sessionSecret), iat: Date.now() })).toString(
    'base64url',
  );
  const state = `${payload}.${mac(zoom, 'state', payload)}`;
  return `${zoom.oauthUrl}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: zoom.clientId, redirect_uri: redirectUri(deps), state })}`;
}

function checkState(deps: AppDeps, zoom: ZoomConfig, user: User, sessionSecret: string, state: string): void {
  const [payload, signature, ...rest] = state.split('.');
  if (!payload || !signature || rest.length > 0 || !equalText(signature, mac(zoom, 'state', payload))) throw invalidSession();
  let data: { realm?: unknown; user?: unknown; sid?: unknown; iat?: unknown };
  try {
    data = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) ?? {};
  } catch {
    throw invalidSession();
  }
  const fresh = typeof data.iat === 'number' && Date.now() - data.iat < STATE_LIFETIME_MS;
  if (data.realm !== deps.realmId || data.user !== user.id || typeof data.sid !== 'string' || !fresh) throw invalidSession();
  if (!equalText(data.sid, sessionId(zoom, sessionSecret))) throw invalidSession();
}

/** A token from Zoom's token endpoint, or null when Zoom refused the grant. */
async function requestUserToken(zoom: ZoomConfig, grant: Record<string, string>): Promise<ZoomUserToken | null> {
  const answer = await zoomPost(`${zoom.oauthUrl}/oauth/token`, {
    headers: { authorization: zoomClientAuthorization(zoom), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(grant).toString(),
  });
  const { access_token, refresh_token, expires_in } = (answer.body ?? {}) as Record<string, unknown>;
  if (!answer.ok || typeof access_token !== 'string' || access_token === '') return null;
  return {
    accessToken: access_token,
    refreshToken: typeof refresh_token === 'string' && refresh_token !== '' ? refresh_token : null,
    expiresAt: typeof expires_in === 'number' && expires_in > 0 ? Date.now() + expires_in * 1000 : null,
  };
}

/**
 * GET /calls/zoom/complete: Zoom's answer to the consent page. The state must be the one this
 * member's session was given; the code is exchanged for the member's token.
 */
export async function completeZoomAuthorization(deps: AppDeps, user: User, sessionSecret: string, params: { code: string; state: string }): Promise<void> {
  const zoom = userOAuthApp(deps);
  checkState(deps, zoom, user, sessionSecret, params.state);
  const token = await requestUserToken(zoom, { grant_type: 'authorization_code', code: params.code, redirect_uri: redirectUri(deps) });
  if (!token) throw invalidCredentials();
  await setZoomToken(deps, zoom, user, token);
}

/** Per configuration and member, a refresh under way: Zoom's refresh tokens are single-use. */
const refreshes = new WeakMap<ZoomConfig, Map<number, Promise<ZoomUserToken>>>();

async function refreshToken(deps: AppDeps, zoom: ZoomConfig, user: User, token: ZoomUserToken): Promise<ZoomUserToken> {
  const fresh = token.refreshToken ? await requestUserToken(zoom, { grant_type: 'refresh_token', refresh_token: token.refreshToken }) : null;
  if (!fresh) {
    await setZoomToken(deps, zoom, user, null);
    throw invalidZoomToken();
  }
  // Zoom may answer without a new refresh token; the old one then still holds.
  const kept = { ...fresh, refreshToken: fresh.refreshToken ?? token.refreshToken };
  await setZoomToken(deps, zoom, user, kept);
  return kept;
}

/** The member's token, refreshed first when it has expired (or is about to). */
async function currentToken(deps: AppDeps, zoom: ZoomConfig, user: User): Promise<ZoomUserToken> {
  const token = await zoomTokenOf(deps, zoom, user.id);
  if (token === undefined) throw invalidZoomToken();
  if (token === null) {
    // Unreadable since the client secret changed: the member has to connect again.
    await setZoomToken(deps, zoom, user, null);
    throw invalidZoomToken();
  }
  if (token.expiresAt === null || Date.now() < token.expiresAt - REFRESH_MARGIN_MS) return token;
  let running = refreshes.get(zoom);
  if (!running) refreshes.set(zoom, (running = new Map()));
  const pending = running.get(user.id);
  if (pending) return pending;
  const refresh = refreshToken(deps, zoom, user, token).finally(() => running.delete(user.id));
  running.set(user.id, refresh);
  return refresh;
}

/** A meeting hosted by the member's own Zoom user. */
export async function createZoomUserCall(deps: AppDeps, zoom: ZoomConfig, user: User, options: { isVideoCall: boolean }): Promise<{ url: string }> {
  const token = await currentToken(deps, zoom, user);
  const answer = await requestZoomMeeting(zoom, 'me', token.accessToken, options.isVideoCall);
  if (answer.status === 401) {
    // Revoked at Zoom (or the app was removed there): the member has to connect again.
    await setZoomToken(deps, zoom, user, null);
    throw invalidZoomToken();
  }
  if (!answer.ok) throw failedToCreateZoomCall();
  return joinUrlOf(answer);
}

/** DELETE /calls/zoom: forgets the member's token (Zoom's own copy is revoked on Zoom's site). */
export async function disconnectZoom(deps: AppDeps, user: User): Promise<void> {
  await setZoomToken(deps, userOAuthApp(deps), user, null);
}
