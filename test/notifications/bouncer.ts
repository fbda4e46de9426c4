import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sodium from 'libsodium-wrappers';

/**
 * A stand-in for Zulip's push notification service on loopback: it records each request (path,
 * credentials, JSON body) and answers as the service does, or with the status a test asks for.
 */
export interface BouncerRequest {
  path: string;
  authorization: string;
  body: any;
}

export interface Bouncer {
  url: string;
  requests: BouncerRequest[];
  /** Statuses to answer with, one per request, before answering 200 again. */
  failWith: number[];
  close(): Promise<void>;
}

export async function startBouncer(): Promise<Bouncer> {
  const requests: BouncerRequest[] = [];
  const failWith: number[] = [];
  const server = http.createServer((req, res) => {
    let data = '';
    req.on('data', (chunk) => (data += chunk));
    req.on('end', () => {
      requests.push({ path: req.url ?? '', authorization: req.headers.authorization ?? '', body: JSON.parse(data || '{}') });
      const status = failWith.shift() ?? 200;
      res.writeHead(status, { 'content-type': 'application/json' });
      if (status !== 200) {
        res.end(JSON.stringify({ result: 'error', msg: 'Service failure', code: 'BAD_REQUEST' }));
      } else if (req.url?.endsWith('/e2ee/notify')) {
        res.end(JSON.stringify({ result: 'success', msg: '', android_successfully_sent_count: 1, apple_successfully_sent_count: 0, delete_device_ids: [] }));
      } else {
        res.end(
          JSON.stringify({
            result: 'success',
            msg: '',
            total_android_devices: 1,
            total_apple_devices: 0,
            deleted_devices: { android_devices: [], apple_devices: [] },
          }),
        );
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failWith,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Opens an E2EE payload as the app does, with the device's key pair. */
export async function openPayload(encrypted: string, keys: { publicKey: Uint8Array; privateKey: Uint8Array }): Promise<any> {
  await sodium.ready;
  const plain = sodium.crypto_box_seal_open(Buffer.from(encrypted, 'base64'), keys.publicKey, keys.privateKey);
  return JSON.parse(Buffer.from(plain).toString('utf8'));
}
