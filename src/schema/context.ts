import type { AppDeps } from '../core/deps';
import type { User } from '../core/users/model';
import type { DeliveryGate } from '../realtime/delivery-gate';

/** Per-operation context: the app's dependencies and the authenticated account, if any. */
export interface GraphQLContext {
  deps: AppDeps;
  user: User | null;
  /** The client's address, which unauthenticated requests and failed logins are counted by. */
  address?: string;
  /** The client's User-Agent (named in the new-login email of a GraphQL login). */
  userAgent?: string;
  /** Over a WebSocket: subscriptions deliver through it (held while credentials are checked again). */
  gate?: DeliveryGate;
  /** The HTTP request's or WebSocket connection's id in the log. */
  requestId?: string;
  /** When the web app's session cookie authenticated the request or socket: the session's hash. */
  sessionHash?: string;
}
