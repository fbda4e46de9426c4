import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Loopback stand-ins for the call providers, checking what the real services check: BigBlueButton's
 * checksum on `create`, Zoom's Basic credentials, its grants (`account_credentials` for a
 * server-to-server app; `authorization_code` and single-use refresh tokens for a per-user app) and
 * bearer tokens.
 */

export async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export const close = (server: http.Server) =>
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
  /** Grants of accepted token requests, in order. */
  grants: string[];
  /** Created meetings: the user path, the bearer token and the body sent. */
  meetings: { user: string; token: string; body: Record<string, any> }[];
  /** Emails of users the account has. */
  users: Set<string>;
  mode: ZoomMode;
  /** The client secret token requests must carry. */
  clientSecret: string;
  /** Lifetime Zoom gives the per-user tokens it issues next. */
  userTokenLifetime: number;
  /** Per-user app: refresh tokens still usable (each is used once). */
  refreshTokens: Set<string>;
  /** Per-user app: parameters of each consent page request. */
  authorizations: Record<string, string>[];
  close(): Promise<void>;
}

/** Without an account id, a per-user OAuth app; with one, a server-to-server app. */
export async function startFakeZoom(credentials: { accountId?: string; clientId: string; clientSecret: string }): Promise<FakeZoom> {
  const fake = {
    issued: [],
    revoked: new Set(),
    refusedTokenRequests: 0,
    grants: [],
    meetings: [],
    users: new Set(),
    mode: 'ok',
    clientSecret: credentials.clientSecret,
    userTokenLifetime: 3599,
    refreshTokens: new Set(),
    authorizations: [],
  } as unknown as FakeZoom;
  /** Consent codes not yet exchanged, with the redirect URI they were given for. */
  const codes = new Map<string, string>();
  const userTokens = new Set<string>();
  const issueUserToken = () => {
    const token = `user-token-${fake.issued.length + 1}`;
    const refresh = `refresh-${fake.issued.length + 1}`;
    fake.issued.push(token);
    userTokens.add(token);
    fake.refreshTokens.add(refresh);
    return { access_token: token, token_type: 'bearer', refresh_token: refresh, expires_in: fake.userTokenLifetime, scope: 'meeting:write' };
  };
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
    if (req.method === 'GET' && url.pathname === '/oauth/authorize') {
      const params = Object.fromEntries(url.searchParams);
      fake.authorizations.push(params);
      if (credentials.accountId || params.response_type !== 'code' || params.client_id !== credentials.clientId || !params.redirect_uri || !params.state) {
        return json(res, 400, { reason: 'Invalid request', error: 'invalid_request' });
      }
      // The member consents at once; Zoom sends the browser back with a code and the state.
      const code = `code-${fake.authorizations.length}`;
      codes.set(code, params.redirect_uri);
      res.statusCode = 302;
      res.setHeader('location', `${params.redirect_uri}?${new URLSearchParams({ code, state: params.state })}`);
      return res.end();
    }
    if (req.method === 'POST' && url.pathname === '/oauth/token') {
      const form = new URLSearchParams(text);
      if (req.headers.authorization !== expectedBasic()) {
        fake.refusedTokenRequests += 1;
        return json(res, 401, { reason: 'Invalid client_id or client_secret', error: 'invalid_client' });
      }
      const grant = form.get('grant_type') ?? '';
      if (!credentials.accountId && grant === 'authorization_code') {
        const code = form.get('code') ?? '';
        if (codes.get(code) === undefined || codes.get(code) !== form.get('redirect_uri')) {
          fake.refusedTokenRequests += 1;
          return json(res, 400, { reason: 'Invalid authorization code', error: 'invalid_grant' });
        }
        codes.delete(code);
        fake.grants.push(grant);
        return json(res, 200, issueUserToken());
      }
      if (!credentials.accountId && grant === 'refresh_token') {
        const refresh = form.get('refresh_token') ?? '';
        if (!fake.refreshTokens.delete(refresh)) {
          fake.refusedTokenRequests += 1;
          return json(res, 400, { reason: 'Invalid Token!', error: 'invalid_request' });
        }
        fake.grants.push(grant);
        return json(res, 200, issueUserToken());
      }
      if (grant !== 'account_credentials' || !credentials.accountId || form.get('account_id') !== credentials.accountId) {
        fake.refusedTokenRequests += 1;
        return json(res, 400, { reason: 'Bad request', error: 'invalid_request' });
      }
      const token = `token-${fake.issued.length + 1}`;
      fake.issued.push(token);
      fake.grants.push(grant);
      return json(res, 200, { access_token: token, token_type: 'bearer', expires_in: 3599, scope: 'meeting:write:admin' });
    }
    const meeting = /^\/v2\/users\/([^/]+)\/meetings$/.exec(url.pathname);
    if (req.method === 'POST' && meeting) {
      if (fake.mode === 'hang-up') return req.socket.destroy();
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (!token || !fake.issued.includes(token) || fake.revoked.has(token)) return json(res, 401, { code: 124, message: 'Invalid access token.' });
      const user = decodeURIComponent(meeting[1]);
      // `me` is the token's own user, for per-user tokens only; others name a user of the account.
      if (user === 'me' ? !userTokens.has(token) : userTokens.has(token) || !fake.users.has(user))
        return json(res, 404, { code: 1001, message: `User does not exist: ${user}.` });
      if (fake.mode === 'server-error') return json(res, 500, { code: 300, message: 'Internal error' });
      const body = JSON.parse(text);
      fake.meetings.push({ user, token, body });
      return json(res, 201, { id: 85746065432, join_url: `https://zoom.example/j/85746065${fake.meetings.length}?pwd=secretpwd`, settings: body.settings });
    }
    json(res, 404, { code: 404, message: 'Not found' });
  });
  fake.url = await listen(server);
  fake.close = () => close(server);
  return fake;
}
