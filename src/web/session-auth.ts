import type { IncomingHttpHeaders } from 'node:http';
import type { Config } from '../config';
import type { AppDeps } from '../core/deps';
import { authenticateSession, notLoggedIn } from '../core/accounts/sessions';
import type { User } from '../core/users/model';
import { checkCsrfHeader, readCookie, SESSION_COOKIE } from './cookies';

/**
 * The web app's credentials: the HttpOnly `sessionid` cookie /login/ sets. They are used only where
 * no Authorization header was sent (a header always wins, and needs no CSRF token), and only
 * - on POST /graphql and under /json, with an `X-CSRFToken` header equal to the `csrftoken` cookie;
 * - on a GraphQL WebSocket whose upgrade request comes from this server's own origin;
 * - on GET of uploaded files and their thumbnails (no token: a GET there changes nothing).
 * They give what the user's API key gives, no more.
 */

/**
 * The session cookie's value, if the request has one. Requests without a Cookie header (API
 * clients) pay one property read.
 */
export function sessionSecretOf(req: { headers: IncomingHttpHeaders }): string | undefined {
  const cookie = req.headers.cookie;
  if (cookie === undefined || !cookie.includes(SESSION_COOKIE)) return undefined;
  return readCookie(req, SESSION_COOKIE);
}

/** A script's request on a session: the CSRF token first (no database for forged requests), then the session. */
export async function authenticateBrowserRequest(deps: AppDeps, req: { headers: IncomingHttpHeaders }, secret: string | undefined): Promise<User> {
  if (secret === undefined) throw notLoggedIn();
  checkCsrfHeader(req);
  return authenticateSession(deps, secret);
}

const ownOrigins = new WeakMap<Config, string>();

/**
 * Whether a request (a WebSocket upgrade) comes from a page of this server: its `Origin` is the
 * origin of the external URL, or http(s) on the host the request was sent to (a server reached as
 * 127.0.0.1:PORT while its external URL says localhost). A browser sets both headers itself, so a
 * page of another site (another port counts) never matches; a site that rebinds its own name to
 * this server matches only its own name, for which the browser holds none of this server's cookies.
 * Requests without an Origin (not from a browser page) do not match.
 */
export function isOwnOrigin(headers: IncomingHttpHeaders, config: Config): boolean {
  const origin = headers.origin?.toLowerCase();
  if (origin === undefined || origin === 'null') return false;
  let own = ownOrigins.get(config);
  if (own === undefined) ownOrigins.set(config, (own = new URL(config.externalUrl).origin.toLowerCase()));
  if (origin === own) return true;
  const host = headers.host?.toLowerCase();
  if (!host) return false;
  return origin === `http://${host}` || origin === `https://${host}`;
}
