import net from 'node:net';

/** An address or CIDR block (`10.0.0.0/8`, `::1`); null when it is neither. */
export function parseProxyEntry(entry: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | null {
  const [address, bits, extra] = entry.trim().split('/');
  const family = net.isIP(address);
  if (family === 0 || extra !== undefined) return null;
  const max = family === 4 ? 32 : 128;
  if (bits !== undefined && !/^\d{1,3}$/.test(bits)) return null;
  const prefix = bits === undefined ? max : Number(bits);
  if (prefix > max) return null;
  return { address, prefix, family: family === 4 ? 'ipv4' : 'ipv6' };
}
