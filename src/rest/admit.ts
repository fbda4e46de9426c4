import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppDeps } from '../deps';
import { rateLimitHeaders, RateLimitState } from '../core/rate-limits/limiter';
import type { User } from '../core/users/model';
import { authenticateRequest } from './auth';
import { clientAddress } from './client-address';
import type { AuthMode } from './endpoint';

/**
 * Who a request is from and whether it may go on, decided from its headers alone (the body is read
 * only after this): its credentials when the endpoint needs them, then Zulip's rate limits, per
 * user when authenticated and per address otherwise. Requests with bad credentials count against
 * their address too, so guessing keys is bounded like any other unauthenticated traffic.
 */
export async function admitRequest(deps: AppDeps, req: IncomingMessage, res: ServerResponse, auth: AuthMode): Promise<User | null> {
  const limits = deps.rateLimits;
  if (auth === 'none') {
    if (limits.enabled) setRateLimitHeaders(res, await limits.countRequest(null, clientAddress(req, deps.config.trustedProxies)));
    return null;
  }
  let user: User;
  try {
    user = await authenticateRequest(deps, req.headers.authorization);
  } catch (error) {
    if (limits.enabled) await limits.countRequest(null, clientAddress(req, deps.config.trustedProxies));
    throw error;
  }
  if (limits.enabled) setRateLimitHeaders(res, await limits.countRequest(user.id, undefined));
  return user;
}

export function setRateLimitHeaders(res: ServerResponse, state: RateLimitState | null): void {
  if (!state) return;
  for (const [name, value] of Object.entries(rateLimitHeaders(state))) res.setHeader(name, value);
}
