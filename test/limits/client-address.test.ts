import type { IncomingMessage } from 'node:http';
import { clientAddress } from '../../src/rest/client-address';

/** Which address the per-address limits count a request against. */
const request = (peer: string, forwardedFor?: string) =>
  ({ socket: { remoteAddress: peer }, headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor } }) as unknown as IncomingMessage;

test('without trusted proxies the peer is the client, whatever the headers say', () => {
  expect(clientAddress(request('203.0.113.7', '198.51.100.1'))).toBe('203.0.113.7');
  expect(clientAddress(request('::ffff:203.0.113.7'))).toBe('203.0.113.7');
  expect(clientAddress(request('2001:db8::1'))).toBe('2001:db8::1');
});

test('behind trusted proxies the client is the last untrusted hop of X-Forwarded-For', () => {
  const proxies = ['10.0.0.0/8', '::1'];
  expect(clientAddress(request('10.0.0.2', '198.51.100.1'), proxies)).toBe('198.51.100.1');
  // A client cannot hide behind an address it writes itself: the proxy appends the real one.
  expect(clientAddress(request('10.0.0.2', '192.0.2.99, 198.51.100.1'), proxies)).toBe('198.51.100.1');
  expect(clientAddress(request('::1', '198.51.100.1, 10.0.0.3'), proxies)).toBe('198.51.100.1');
  expect(clientAddress(request('10.0.0.2', 'garbage, ::ffff:198.51.100.4'), proxies)).toBe('198.51.100.4');
  // Nothing usable in the header: the proxy itself.
  expect(clientAddress(request('10.0.0.2'), proxies)).toBe('10.0.0.2');
  expect(clientAddress(request('10.0.0.2', '10.0.0.5'), proxies)).toBe('10.0.0.5');
});

test('an untrusted peer cannot choose its address with the header', () => {
  expect(clientAddress(request('203.0.113.7', '198.51.100.1'), ['10.0.0.0/8'])).toBe('203.0.113.7');
});
