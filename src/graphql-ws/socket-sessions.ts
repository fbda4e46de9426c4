import type { WebSocket } from 'ws';
import type { AppDeps } from '../core/deps';
import { authenticateSession } from '../core/accounts/sessions';
import { AUTH_CHANGED } from '../core/users/auth-cache';
import type { User } from '../core/users/model';
import { authenticateGraphQLRequest } from '../schema/authenticate';
import type { Delivery } from '../realtime/bus';
import { DeliveryGate } from '../realtime/delivery-gate';

/** Close codes of the GraphQL WebSocket (graphql-ws uses 4400–4499 for the protocol's own). */
export const CLOSE_FORBIDDEN = 4403;
export const CLOSE_TOO_MANY = 4429;

/**
 * What a socket authenticated with, checked again when it may have been revoked: an Authorization
 * value (from connection_init or the upgrade request), or the web app's session cookie.
 */
export type SocketCredential = { authorization: string } | { sessionSecret: string };

/** Authenticates a socket's credential; `fresh` reads a session from the database, not the cache. */
export function authenticateSocket(deps: AppDeps, credential: SocketCredential, { fresh = false } = {}): Promise<User> {
  return 'sessionSecret' in credential
    ? authenticateSession(deps, credential.sessionSecret, { fresh })
    : authenticateGraphQLRequest(deps, credential.authorization);
}

interface Session {
  socket: WebSocket;
  gate: DeliveryGate;
  credential: SocketCredential;
  user: User;
}

/**
 * The authenticated GraphQL WebSockets of this process, by user: bounds how many one user holds,
 * and ends those whose credentials no longer hold. Every process hears of changed credentials on the
 * bus (`auth_changed` for keys, role, activation, permissions and ended web sessions; realm
 * deactivation) and checks its own sockets of that user again, holding their deliveries meanwhile:
 * a socket whose credentials are refused now (a session socket's session is read afresh), or whose
 * user lost rights (a lower role), is closed with 4403 and receives nothing published after the
 * change. Its client reconnects and is authorized afresh.
 */
export class SocketSessions {
  private readonly byUser = new Map<number, Set<Session>>();
  private readonly stopListening: () => void;

  constructor(
    private readonly deps: AppDeps,
    private readonly maxPerUser: number,
  ) {
    this.stopListening = deps.bus.subscribe((deliveries) => this.onDeliveries(deliveries));
  }

  /**
   * Registers an authenticated socket and returns the gate its subscriptions deliver through; null
   * (and nothing registered) when the user holds too many.
   */
  add(socket: WebSocket, credential: SocketCredential, user: User): DeliveryGate | null {
    let own = this.byUser.get(user.id);
    if (!own) this.byUser.set(user.id, (own = new Set()));
    if (own.size >= this.maxPerUser) return null;
    const session: Session = { socket, gate: new DeliveryGate(), credential, user };
    own.add(session);
    socket.once('close', () => {
      own.delete(session);
      if (own.size === 0 && this.byUser.get(user.id) === own) this.byUser.delete(user.id);
    });
    return session.gate;
  }

  countFor(userId: number): number {
    return this.byUser.get(userId)?.size ?? 0;
  }

  private onDeliveries(deliveries: Delivery[]): void {
    for (const { event } of deliveries) {
      if (event.type === AUTH_CHANGED && typeof event.user_id === 'number') {
        this.recheck(event.user_id);
      } else if (event.type === 'realm' && event.op === 'deactivated') {
        for (const userId of this.byUser.keys()) this.recheck(userId);
      }
    }
  }

  /** Authenticates each of the user's sockets again, from the database, and closes those refused. */
  private recheck(userId: number): void {
    const own = this.byUser.get(userId);
    if (!own) return;
    for (const session of own) {
      session.gate.hold();
      void authenticateSocket(this.deps, session.credential, { fresh: true })
        .then(
          (now) => {
            // A higher role number is a lesser role (owner 100 … guest 600): what it saw may be too much.
            if (now.id !== session.user.id || now.role > session.user.role) this.end(session);
            else session.user = now;
          },
          () => this.end(session),
        )
        .finally(() => session.gate.release());
    }
  }

  /** Closes the socket; its held deliveries are never released to it (graphql-ws ends its streams). */
  private end(session: Session): void {
    session.socket.close(CLOSE_FORBIDDEN, 'Forbidden');
    session.gate.hold();
  }

  close(): void {
    this.stopListening();
    this.byUser.clear();
  }
}
