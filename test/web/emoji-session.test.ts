import { apiRequest, basicAuth } from '../helpers/api';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, type TestServer, type TestUser } from '../helpers/server';
import { solidPng } from '../uploads/images';
import { type BrowserSession, CSRF_FAILED, cookieHeader, logIn } from './browser-session';

/**
 * The web app adds custom emoji at /json/realm/emoji/<name> with its session (the cookie and the CSRF
 * token): the same endpoint and answers as POST /api/v1/realm/emoji/<name> with an API key.
 */
let ts: TestServer;
let member: TestUser;
let session: BrowserSession;

beforeAll(async () => {
  ts = await startTestServer();
  member = await makeUser(ts, 400, { fullName: 'Emma Emoji' });
  session = await logIn(ts, member);
}, SERVER_HOOK_TIMEOUT);
afterAll(() => ts.close(), SERVER_HOOK_TIMEOUT);

const postEmoji = async (prefix: string, name: string, headers: Record<string, string>) => {
  const form = new FormData();
  form.append('file', new Blob([await solidPng(16, 16)], { type: 'image/png' }), 'emoji.png');
  const res = await fetch(`${ts.url}${prefix}/realm/emoji/${name}`, { method: 'POST', headers, body: form });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

test('POST /json/realm/emoji/<name> needs the CSRF token', async () => {
  const refused = await postEmoji('/json', 'refused', { cookie: cookieHeader(session) });
  expect(refused).toEqual({ status: 403, body: { result: 'error', code: 'CSRF_FAILED', msg: CSRF_FAILED.message } });
  // Basic credentials are for /api/v1 only.
  expect((await postEmoji('/json', 'refused', { authorization: basicAuth(member) })).status).toBe(401);
});

test('with the token it adds the emoji as POST /api/v1/realm/emoji/<name> does', async () => {
  const viaSession = await postEmoji('/json', 'party_parrot', { cookie: cookieHeader(session), 'x-csrftoken': session.csrftoken });
  const viaKey = await postEmoji('/api/v1', 'api_parrot', { authorization: basicAuth(member) });
  expect(viaSession).toEqual({ status: 200, body: { result: 'success', msg: '' } });
  expect(viaSession).toEqual(viaKey);
  const listed = await apiRequest(ts, member, 'GET', '/realm/emoji');
  const names = Object.values(listed.body.emoji as Record<string, { name: string; author_id: number }>).map((e) => [e.name, e.author_id]);
  expect(names).toEqual(expect.arrayContaining([['party_parrot', member.id]]));
  // The server's refusal reaches the web app as it is: the name is taken now.
  const again = await postEmoji('/json', 'party_parrot', { cookie: cookieHeader(session), 'x-csrftoken': session.csrftoken });
  expect(again.status).toBe(400);
  expect(again.body.result).toBe('error');
});
