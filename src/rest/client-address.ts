import type { IncomingMessage } from 'node:http';

/**
 * The address a request came from, as the rate limits key it: the connection's peer (no forwarding
 * header is trusted), IPv4 addresses without their IPv6-mapped prefix.
 */
export function clientAddress(req: IncomingMessage): string {
  const address = req.socket.remoteAddress ?? 'unknown';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}
