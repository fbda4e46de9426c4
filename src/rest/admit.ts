import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppDeps } from '../core/deps';
import { rateLimitHeaders, RateLimitState } from '../core/rate-limits/limiter';
import type { User } from '../core/users/model';
import { authenticateRequest } from '../core/users/request-auth';
import { clientAddress } from './client-address';
import type { AuthMode } from './endpoint';

/**
 * Who a request is from and whether it may go on, decided from its headers alone (the body is read
 * only after this): its credentials when the endpoint needs them, then Zulip's rate limits, per
 * user when authenticated and per address otherwise.
 */
export function admitRequest(deps: AppDeps, req: IncomingMessage, res: ServerResponse, auth: AuthMode): Promise<User | null> {
  return admit(deps, req, res, auth === 'none' ? 'ignored' : auth);
}

/**
 * `required` credentials must be sent and valid; `optional` ones (GraphQL, where some operations
 * need none) must be valid when sent; `ignored` ones are not looked at. Requests with bad
 * credentials count against their address, so guessing keys is bounded like any other
 * unauthenticated traffic.
 */
export async function admit(
  deps: AppDeps,
  req: IncomingMessage,
  res: ServerResponse,
  credentials: 'required' | 'optional' | 'ignored',
  /** GraphQL also accepts `Bearer <api key>`. */
  authenticate: typeof authenticateRequest = authenticateRequest,
): Promise<User | null> {
  const limits = deps.rateLimits;
  const header = credentials === 'ignored' ? undefined : req.headers.authorization;
  let user: User | null = null;
  if (credentials === 'required' || header) {
    try {
      user = await authenticate(deps, header);
    } catch (error) {
      if (limits.enabled) await limits.countRequest(null, clientAddress(req, deps.config.trustedProxies));
      throw error;
    }
  }
  if (limits.enabled) {
    const address = user ? undefined : clientAddress(req, deps.config.trustedProxies);
    setRateLimitHeaders(res, await limits.countRequest(user?.id ?? null, address));
  }
  return user;
}

export function setRateLimitHeaders(res: ServerResponse, state: RateLimitState | null): void {
  if (!state) return;
  for (const [name, value] of Object.entries(rateLimitHeaders(state))) res.setHeader(name, value);
}
