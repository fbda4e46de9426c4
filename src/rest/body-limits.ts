import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ApiError } from '../errors';
import { PARAMETER_LIMIT } from './form-body';

/**
 * Bounds on what a client may send, enforced while the body streams in: a body over the limit is
 * refused as soon as that is known (from its declared length, or once that many bytes arrived), and
 * the connection is closed after the answer so the rest is never read.
 */

/** Files in one multipart body; every endpoint taking files wants one, and says so itself. */
export const FILE_LIMIT = 20;

/** A body this small that was left unread is discarded by node, keeping the connection for the next request. */
const DISCARDABLE_BYTES = 64 * 1024;

const MIB = 1024 * 1024;

/** After such an answer, how long and how much of the rest of the body is still taken in and dropped. */
const LINGER_MS = 2_000;
const LINGER_BYTES = 16 * MIB;

export function bodyTooLarge(maxBytes: number): ApiError {
  const limit = maxBytes % MIB === 0 ? `${maxBytes / MIB} MiB` : maxBytes % 1024 === 0 ? `${maxBytes / 1024} KiB` : `${maxBytes} bytes`;
  return new ApiError('BAD_REQUEST', `Request body is larger than the allowed limit of ${limit}`, 413);
}

export function tooManyParameters(): ApiError {
  return new ApiError('BAD_REQUEST', `Request has more than the allowed limit of ${PARAMETER_LIMIT} parameters`, 413);
}

export function tooManyFiles(): ApiError {
  return new ApiError('BAD_REQUEST', `Request has more than the allowed limit of ${FILE_LIMIT} files`, 413);
}

export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** The Content-Length a body declares; null when it is sent in chunks. */
export function declaredLength(req: IncomingMessage): number | null {
  if (req.headers['transfer-encoding'] !== undefined) return null;
  const length = req.headers['content-length'];
  return length === undefined ? null : Number(length);
}

/**
 * To call before answering a request whose body may not have been read to its end: a small
 * declared body is left for node to discard; anything else closes the connection after the answer.
 */
export function closeIfBodyUnread(req: IncomingMessage, res: ServerResponse): void {
  if (req.complete || res.headersSent || !hasBody(req)) return;
  const declared = declaredLength(req);
  if (declared !== null && declared <= DISCARDABLE_BYTES) return;
  res.setHeader('Connection', 'close');
  lingerBeforeClosing(req);
}

/**
 * Node destroys the socket as soon as a closing answer is written. With the client's bytes still
 * arriving, the kernel then resets the connection, and a reset can discard the answer before the
 * client has read it. Instead the answer is followed by a half-close, and what still arrives is
 * dropped for a moment (bounded in time and bytes) so the client can read the answer and stop.
 */
function lingerBeforeClosing(req: IncomingMessage): void {
  const socket = req.socket as Socket & { destroySoon?: () => void };
  socket.destroySoon = () => {
    socket.end();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    socket.once('close', () => clearTimeout(timer));
    let dropped = 0;
    req.on('data', (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped > LINGER_BYTES) socket.destroy();
    });
    req.resume();
  };
}

/**
 * Calls `onOverflow` once, as soon as more than `maxBytes` of the body arrived (or are declared).
 * The byte count is taken on the wire, so a compressed body is bounded too.
 */
export function watchBodySize(req: IncomingMessage, maxBytes: number, onOverflow: () => void): void {
  const declared = declaredLength(req);
  if (declared !== null && declared > maxBytes) {
    onOverflow();
    return;
  }
  // A declared length is enforced by node's parser; only chunked bodies need counting.
  if (declared !== null) return;
  let received = 0;
  const count = (chunk: Buffer) => {
    received += chunk.length;
    if (received <= maxBytes) return;
    req.off('data', count);
    onOverflow();
  };
  req.on('data', count);
}
