import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Config } from '../config';
import type { Database } from '../db/connect';
import type { AppDeps } from '../core/deps';
import { log } from '../log';
import type { Parsed } from './commands';

/**
 * The running server's door for operator commands: a Unix socket in DATA_DIR that only the owner
 * of the files may open (mode 0600), so the CLI works while the server holds the embedded
 * database. One request per connection: the parsed command as a JSON line; the answer is a stream
 * of JSON lines (`out`, `err`, `progress`) ending with `exit`.
 */
export const SOCKET_NAME = 'parley.sock';

export const operatorSocketPath = (config: Config) => path.join(config.dataDir, SOCKET_NAME);

export interface OperatorRequest {
  command: string;
  args: Parsed;
}

export type OperatorMessage = { out: string } | { err: string } | { progress: number; label: string } | { exit: number };

export type ServerCommandRunner = (
  request: OperatorRequest,
  context: { deps: AppDeps; db: Database },
  send: (message: OperatorMessage) => void,
) => Promise<number>;

function isLive(file: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.connect(file);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

/** Listens on DATA_DIR/parley.sock; null (and a warning) when another live server holds it. */
export async function listenOperatorSocket(
  file: string,
  context: { deps: AppDeps; db: Database },
  run: ServerCommandRunner,
): Promise<{ close(): Promise<void> } | null> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (fs.existsSync(file)) {
    if (await isLive(file)) {
      log().warn(`another server answers operator commands on ${file}; this one does not`);
      return null;
    }
    fs.rmSync(file, { force: true });
  }
  const server = net.createServer((socket) => {
    let buffer = '';
    const send = (message: OperatorMessage) => {
      if (!socket.destroyed) socket.write(`${JSON.stringify(message)}\n`);
    };
    socket.on('error', () => undefined);
    socket.on('data', (chunk) => {
      buffer += chunk;
      const end = buffer.indexOf('\n');
      if (end < 0) {
        if (buffer.length > 64 * 1024) socket.destroy();
        return;
      }
      const line = buffer.slice(0, end);
      buffer = '';
      socket.removeAllListeners('data');
      let request: OperatorRequest;
      try {
        request = JSON.parse(line) as OperatorRequest;
      } catch {
        send({ err: 'error: malformed operator request' });
        send({ exit: 2 });
        socket.end();
        return;
      }
      log().info({ command: request.command }, 'operator command');
      void run(request, context, send).then(
        (code) => {
          send({ exit: code });
          socket.end();
        },
        (error: Error) => {
          send({ err: `error: ${error.message}` });
          send({ exit: 1 });
          socket.end();
        },
      );
    });
  });
  // Created with no permissions for others from the start, not chmod-ed after the fact.
  const umask = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(file, () => resolve());
    });
  } catch (error) {
    // The server still serves clients; operator commands then need it stopped (embedded database).
    log().warn(`cannot listen for operator commands on ${file}: ${(error as Error).message}`);
    return null;
  } finally {
    process.umask(umask);
  }
  fs.chmodSync(file, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        fs.rmSync(file, { force: true });
      }),
  };
}

/**
 * Sends a command to the server listening on `file`. Resolves with its exit code, or null when no
 * server listens there (the CLI then opens the database itself).
 */
export function sendToServer(file: string, request: OperatorRequest, handle: (message: OperatorMessage) => void): Promise<number | null> {
  return new Promise((resolve, reject) => {
    if (!fs.existsSync(file)) {
      resolve(null);
      return;
    }
    const socket = net.connect(file);
    let connected = false;
    let exit: number | null = null;
    let buffer = '';
    socket.once('connect', () => {
      connected = true;
      socket.write(`${JSON.stringify(request)}\n`);
    });
    socket.on('data', (chunk) => {
      buffer += chunk;
      let end;
      while ((end = buffer.indexOf('\n')) >= 0) {
        const message = JSON.parse(buffer.slice(0, end)) as OperatorMessage;
        buffer = buffer.slice(end + 1);
        if ('exit' in message) exit = message.exit;
        else handle(message);
      }
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      // A socket left by a server that is gone: nobody to talk to.
      if (!connected && (error.code === 'ECONNREFUSED' || error.code === 'ENOENT')) resolve(null);
      else if (error.code === 'EACCES') reject(new Error(`cannot open ${file}: run the command as the user the server runs as`));
      else reject(error);
    });
    socket.once('close', () => {
      if (connected) {
        if (exit === null) reject(new Error('the server closed the connection before the command finished'));
        else resolve(exit);
      }
    });
  });
}
