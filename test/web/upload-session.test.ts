import fs from 'node:fs';
import { apiRequest, basicAuth } from '../helpers/api';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { download, tempDataDir } from '../uploads/files';
import { solidPng } from '../uploads/images';
import { BrowserSession, CSRF_FAILED, cookieHeader, logIn, NOT_LOGGED_IN } from './browser-session';

/**
 * The web app uploads at /json/user_uploads with its session (the cookie and the CSRF token), as
 * Zulip's does, and reads files and thumbnails with the cookie alone: the same endpoint, limits and
 * answers as /api/v1 with an API key.
 */
let ts: TestServer;
let dataDir: string;
let member: TestUser;
let sender: TestUser;
let session: BrowserSession;

beforeAll(async () => {
  dataDir = tempDataDir();
  ts = await startTestServer({ DATA_DIR: dataDir, PARLEY_THUMBNAIL_WORKER: 'false', PARLEY_MAX_FILE_UPLOAD_SIZE_MIB: '1' });
  member = await makeUser(ts, 400, { fullName: 'Mona Member' });
  sender = await makeUser(ts, 400, { fullName: 'Sam Sender' });
  session = await logIn(ts, member);
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, SERVER_HOOK_TIMEOUT);

describe('files with the session cookie', () => {
  const postUpload = async (prefix: string, headers: Record<string, string>, data: Buffer, name: string, type: string) => {
    const form = new FormData();
    form.append('file', new Blob([data], { type }), name);
    const res = await fetch(`${ts.url}${prefix}/user_uploads`, { method: 'POST', headers, body: form });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };
  const browserHeaders = (csrf: string | null = session.csrftoken): Record<string, string> => ({
    cookie: cookieHeader(session),
    ...(csrf === null ? {} : { 'x-csrftoken': csrf }),
  });

  test('POST /json/user_uploads needs the CSRF token', async () => {
    const data = Buffer.from('refused');
    for (const csrf of [null, 'x'.repeat(43)]) {
      const res = await postUpload('/json', browserHeaders(csrf), data, 'refused.txt', 'text/plain');
      expect(res).toEqual({ status: 403, body: { result: 'error', code: 'CSRF_FAILED', msg: CSRF_FAILED.message } });
    }
    // Only the session: Basic credentials are for /api/v1.
    const basic = await postUpload('/json', { authorization: basicAuth(member) }, data, 'refused.txt', 'text/plain');
    expect(basic).toEqual({ status: 401, body: { result: 'error', code: 'UNAUTHORIZED', msg: NOT_LOGGED_IN.message } });
    expect(await ts.server.deps.knex('attachments').where({ owner_id: member.id, file_name: 'refused.txt' })).toEqual([]);
  });

  test('with the token it stores the file and answers as POST /api/v1/user_uploads does', async () => {
    const viaSession = await postUpload('/json', browserHeaders(), Buffer.from('from the web app'), 'notes.txt', 'text/plain');
    const viaKey = await postUpload('/api/v1', { authorization: basicAuth(member) }, Buffer.from('from an API client'), 'notes.txt', 'text/plain');
    expect(viaSession.status).toBe(200);
    expect(Object.keys(viaSession.body).sort()).toEqual(Object.keys(viaKey.body).sort());
    expect(viaSession.body).toEqual({
      result: 'success',
      msg: '',
      uri: viaSession.body.url,
      url: expect.stringMatching(/^\/user_uploads\/\d+\/.+\/notes\.txt$/),
      filename: 'notes.txt',
    });
    // Downloaded with the cookie alone, as Zulip's web app does.
    const res = await fetch(`${ts.url}${viaSession.body.url}`, { headers: { cookie: cookieHeader(session) } });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('from the web app');
    // Someone else's session sees only what they may see.
    const other = await logIn(ts, sender);
    expect((await fetch(`${ts.url}${viaSession.body.url}`, { headers: { cookie: cookieHeader(other) } })).status).toBe(403);
    expect((await download(ts, viaSession.body.url, null)).status).toBe(401);
  });

  test('thumbnails accept the cookie too', async () => {
    const uploaded = await postUpload('/json', browserHeaders(), await solidPng(40, 20), 'tiny.png', 'image/png');
    expect(uploaded.status).toBe(200);
    const thumbnail = `/user_uploads/thumbnail/${uploaded.body.url.slice('/user_uploads/'.length)}/840x560.webp`;
    const res = await fetch(`${ts.url}${thumbnail}`, { headers: { cookie: cookieHeader(session) } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
  });

  test('the same limits and refusals', async () => {
    const tooLarge = Buffer.alloc(1024 * 1024 + 1);
    const viaSession = await postUpload('/json', browserHeaders(), tooLarge, 'large.bin', 'application/octet-stream');
    const viaKey = await postUpload('/api/v1', { authorization: basicAuth(member) }, tooLarge, 'large.bin', 'application/octet-stream');
    expect(viaSession).toEqual({ status: 400, body: { result: 'error', code: 'BAD_REQUEST', msg: 'Uploaded file is larger than the allowed limit of 1 MiB' } });
    expect(viaKey).toEqual(viaSession);
    const noFile = async (prefix: string, headers: Record<string, string>) => {
      const res = await fetch(`${ts.url}${prefix}/user_uploads`, { method: 'POST', headers, body: new FormData() });
      return { status: res.status, body: await res.json() };
    };
    expect(await noFile('/json', browserHeaders())).toEqual(await noFile('/api/v1', { authorization: basicAuth(member) }));
  });

  test('unknown /json paths are not found; /json serves only what the web app needs', async () => {
    const res = await apiRequest(ts, null, 'GET', '/users/me');
    expect(res.status).toBe(401);
    const json = await fetch(`${ts.url}/json/users/me`, { headers: browserHeaders() });
    expect(json.status).toBe(404);
  });
});
