import { createClient as createSocket, type Client as Socket } from 'graphql-ws';

/**
 * The GraphQL WebSocket. The browser sends the session cookie with the upgrade and the server checks
 * its Origin; no credentials pass through script. It reconnects for ever, backing off up to 10 s, and
 * tells the app when it is up again, so that the app can catch up on what it missed.
 */
export type ConnectionStatus = 'connecting' | 'live' | 'reconnecting';

type Listener = (status: ConnectionStatus, reconnected: boolean) => void;
const listeners = new Set<Listener>();
let everConnected = false;

export function onConnection(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function tell(status: ConnectionStatus, reconnected = false): void {
  for (const listener of listeners) listener(status, reconnected);
}

export function socketUrl(location: Location = window.location): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/graphql`;
}

export function createConnection(): Socket {
  return createSocket({
    url: socketUrl(),
    lazy: false,
    keepAlive: 20_000,
    retryAttempts: Number.POSITIVE_INFINITY,
    shouldRetry: () => true,
    retryWait: async (retries) => {
      const ms = Math.min(10_000, 500 * 2 ** Math.min(retries, 5)) * (0.75 + Math.random() / 2);
      await new Promise((resolve) => setTimeout(resolve, ms));
    },
    on: {
      connecting: () => tell(everConnected ? 'reconnecting' : 'connecting'),
      connected: () => {
        tell('live', everConnected);
        everConnected = true;
      },
      closed: (event) => {
        // The server ends a socket whose session ended: the page must sign in again.
        if ((event as CloseEvent | undefined)?.code === 4403) window.location.assign('/login/?next=/');
        else if (everConnected) tell('reconnecting');
      },
    },
  });
}
