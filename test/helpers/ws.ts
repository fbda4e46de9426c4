import WebSocket from 'ws';
import { basicAuth } from './api';
import type { TestServer } from './server';
import { waitUntil } from './wait';

/**
 * A graphql-ws socket driven message by message (the graphql-transport-ws protocol), for tests that
 * need to see exactly what the server sends and how it closes.
 */
export interface RawSocket {
  ws: WebSocket;
  /** Messages received, parsed. */
  messages: any[];
  /** The close code, once closed. */
  closeCode: number | null;
  send(message: unknown): void;
  /** Sends connection_init (with credentials when given) and waits for the ack or the close. */
  init(who?: { email: string; apiKey: string }): Promise<boolean>;
  subscribe(id: string, query: string): void;
  closed(): Promise<number>;
}

/**
 * Opens a socket; resolves with the HTTP status instead when the upgrade is refused. `headers` go
 * on the upgrade request (a browser's Cookie and Origin, say).
 */
export async function openSocket(ts: TestServer, headers: Record<string, string> = {}): Promise<RawSocket | { status: number }> {
  const ws = new WebSocket(`${ts.url.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws', { headers });
  const socket: RawSocket = {
    ws,
    messages: [],
    closeCode: null,
    send: (message) => ws.send(JSON.stringify(message)),
    init: async (who) => {
      socket.send({ type: 'connection_init', payload: who ? { authorization: basicAuth(who) } : {} });
      await waitUntil(() => socket.closeCode !== null || socket.messages.some((m) => m.type === 'connection_ack'));
      return socket.closeCode === null;
    },
    subscribe: (id, query) => socket.send({ id, type: 'subscribe', payload: { query } }),
    closed: async () => {
      await waitUntil(() => socket.closeCode !== null);
      return socket.closeCode!;
    },
  };
  ws.on('message', (data) => socket.messages.push(JSON.parse(String(data))));
  ws.on('close', (code) => (socket.closeCode = code));
  ws.on('error', () => {});
  return new Promise((resolve) => {
    ws.once('open', () => resolve(socket));
    ws.once('unexpected-response', (_req, res) => {
      resolve({ status: res.statusCode ?? 0 });
      ws.terminate();
    });
  });
}

export async function openedSocket(ts: TestServer, headers: Record<string, string> = {}): Promise<RawSocket> {
  const opened = await openSocket(ts, headers);
  if (!('ws' in opened)) throw new Error(`upgrade refused with ${opened.status}`);
  return opened;
}

/** The `next` payloads received for one operation. */
export function resultsFor(socket: RawSocket, id: string): any[] {
  return socket.messages.filter((m) => m.id === id && m.type === 'next').map((m) => m.payload);
}
