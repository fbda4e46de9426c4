import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Loopback stand-ins for the call providers, checking what the real services check: BigBlueButton's
 * checksum on `create`, Zoom's Basic credentials, `account_credentials` grant and bearer token.
 */

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const close = (server: http.Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The query string less its trailing checksum, and whether the checksum is BigBlueButton's for `call`. */
export function checkBbbChecksum(call: string, rawQuery: string, secret: string): boolean {
  const match = /^(.*)&checksum=([0-9a-f]{64})$/.exec(rawQuery);
  return match !== null && sha256(`${call}${match[1]}${secret}`) === match[2];
}

export type BbbMode = 'ok' | 'failed' | 'http-error';

export interface FakeBigBlueButton {
  /** The base URL to configure (ending in /bigbluebutton/). */
  url: string;
  /** Parameters of each `create` call whose checksum was right. */
  creates: Record<string, string>[];
  /** Calls refused for a wrong checksum. */
  badChecksums: number;
  mode: BbbMode;
  /** The secret checksums are checked with (another one stands for a misconfigured server). */
  secret: string;
  createTime: string;
  close(): Promise<void>;
}

export async function startFakeBigBlueButton(secret: string): Promise<FakeBigBlueButton> {
  const fake = { creates: [], badChecksums: 0, mode: 'ok', secret, createTime: '1767225600123' } as unknown as FakeBigBlueButton;
  const server = http.createServer((req, res) => {
    const [path, rawQuery = ''] = (req.url ?? '').split('?');
    res.setHeader('content-type', 'text/xml');
    if (path !== '/bigbluebutton/api/create') {
      res.statusCode = 404;
      res.end();
      return;
    }
    if (!checkBbbChecksum('create', rawQuery, fake.secret)) {
      fake.badChecksums += 1;
      res.end('<response><returncode>FAILED</returncode><messageKey>checksumError</messageKey><message>Checksums do not match</message></response>');
      return;
    }
    if (fake.mode === 'http-error') {
      res.statusCode = 502;
      res.end('<html>Bad gateway</html>');
      return;
    }
    const params = Object.fromEntries(new URLSearchParams(rawQuery));
    delete params.checksum;
    fake.creates.push(params);
    if (fake.mode === 'failed') {
      res.end('<response><returncode>FAILED</returncode><messageKey>idNotUnique</messageKey><message>A meeting already exists</message></response>');
      return;
    }
    res.end(
      `<response>\n  <returncode>SUCCESS</returncode>\n  <meetingID>${params.meetingID}</meetingID>\n  <createTime>${fake.createTime}</createTime>\n  <hasBeenForciblyEnded>false</hasBeenForciblyEnded>\n  <messageKey></messageKey>\n</response>`,
    );
  });
  fake.url = `${await listen(server)}/bigbluebutton/`;
  fake.close = () => close(server);
  return fake;
}

export type ZoomMode = 'ok' | 'server-error' | 'hang-up';

export interface FakeZoom {
  url: string;
  /** Tokens handed out, in order. */
  issued: string[];
  /** Tokens the API no longer accepts (as after Zoom revokes them). */
  revoked: Set<string>;
  /** Token requests refused for wrong credentials or grant. */
  refusedTokenRequests: number;
  /** Created meetings: the user path and the body sent. */
  meetings: { user: string; body: Record<string, any> }[];
  /** Emails of users the account has. */
  users: Set<string>;
  mode: ZoomMode;
  /** The client secret token requests must carry. */
  clientSecret: string;
  close(): Promise<void>;
}

export async function startFakeZoom(credentials: { accountId: string; clientId: string; clientSecret: string }): Promise<FakeZoom> {
  const fake = {
    issued: [],
    revoked: new Set(),
    refusedTokenRequests: 0,
    meetings: [],
    users: new Set(),
    mode: 'ok',
    clientSecret: credentials.clientSecret,
  } as unknown as FakeZoom;
  const expectedBasic = () => `Basic ${Buffer.from(`${credentials.clientId}:${fake.clientSecret}`).toString('base64')}`;
  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.statusCode = status;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(body));
  };
  const server = http.createServer(async (req, res) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    const url = new URL(req.url ?? '/', 'http://zoom.invalid');
    if (req.method === 'POST' && url.pathname === '/oauth/token') {
      const form = new URLSearchParams(text);
      if (req.headers.authorization !== expectedBasic()) {
        fake.refusedTokenRequests += 1;
        return json(res, 401, { reason: 'Invalid client_id or client_secret', error: 'invalid_client' });
      }
      if (form.get('grant_type') !== 'account_credentials' || form.get('account_id') !== credentials.accountId) {
        fake.refusedTokenRequests += 1;
        return json(res, 400, { reason: 'Bad request', error: 'invalid_request' });
      }
      const token = `token-${fake.issued.length + 1}`;
      fake.issued.push(token);
      return json(res, 200, { access_token: token, token_type: 'bearer', expires_in: 3599, scope: 'meeting:write:admin' });
    }
    const meeting = /^\/v2\/users\/([^/]+)\/meetings$/.exec(url.pathname);
    if (req.method === 'POST' && meeting) {
      if (fake.mode === 'hang-up') return req.socket.destroy();
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (!token || !fake.issued.includes(token) || fake.revoked.has(token)) return json(res, 401, { code: 124, message: 'Invalid access token.' });
      const user = decodeURIComponent(meeting[1]);
      if (!fake.users.has(user)) return json(res, 404, { code: 1001, message: `User does not exist: ${user}.` });
      if (fake.mode === 'server-error') return json(res, 500, { code: 300, message: 'Internal error' });
      const body = JSON.parse(text);
      fake.meetings.push({ user, body });
      return json(res, 201, { id: 85746065432, join_url: `https://zoom.example/j/85746065${fake.meetings.length}?pwd=secretpwd`, settings: body.settings });
    }
    json(res, 404, { code: 404, message: 'Not found' });
  });
  fake.url = await listen(server);
  fake.close = () => close(server);
  return fake;
}
