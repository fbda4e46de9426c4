import type { IncomingMessage } from 'node:http';
import net from 'node:net';
import { parseProxyEntry } from '../config/proxy-entry';
import type { LoginDevice } from '../core/accounts/login-emails';

/**
 * The address a request came from, as the rate limits key it. Behind a reverse proxy every
 * connection comes from the proxy, so for connections from the proxies the operator lists
 * (PARLEY_TRUSTED_PROXIES) the client is the last address in X-Forwarded-For that is not itself a
 * trusted proxy, as Zulip reads it behind its configured load balancers. Nothing else can choose
 * its address.
 */
export function clientAddress(req: IncomingMessage, trustedProxies: readonly string[] = []): string {
  const peer = normalize(req.socket.remoteAddress ?? 'unknown');
  if (trustedProxies.length === 0) return peer;
  const trusted = blockListFor(trustedProxies);
  if (!isIn(trusted, peer)) return peer;
  const header = req.headers['x-forwarded-for'];
  const hops = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((hop) => normalize(hop.trim()))
    .filter((hop) => net.isIP(hop));
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!isIn(trusted, hops[i])) return hops[i];
  }
  return hops[0] ?? peer;
}

/** Where a login comes from: the client's address and its User-Agent (the new-login email names both). */
export function loginDevice(req: IncomingMessage, trustedProxies: readonly string[] = []): LoginDevice {
  const agent = req.headers['user-agent'];
  return { address: clientAddress(req, trustedProxies), userAgent: typeof agent === 'string' ? agent.slice(0, 1000) : '' };
}

/** IPv4 addresses without their IPv6-mapped prefix. */
function normalize(address: string): string {
  return address.startsWith('::ffff:') && net.isIPv4(address.slice(7)) ? address.slice(7) : address;
}

function isIn(list: net.BlockList, address: string): boolean {
  const family = net.isIP(address);
  return family !== 0 && list.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

const blockLists = new WeakMap<readonly string[], net.BlockList>();

function blockListFor(entries: readonly string[]): net.BlockList {
  let list = blockLists.get(entries);
  if (!list) {
    list = new net.BlockList();
    for (const entry of entries) {
      const parsed = parseProxyEntry(entry);
      if (!parsed) continue;
      list.addSubnet(parsed.address, parsed.prefix, parsed.family);
    }
    blockLists.set(entries, list);
  }
  return list;
}
