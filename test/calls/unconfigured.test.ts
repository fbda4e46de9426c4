import { ConfigError, loadConfig } from '../../src/config';
import { assertError, assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { registerQueue } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { cookieHeader, logIn } from '../web/browser-session';

let ts: TestServer;
let alice: TestUser;

beforeAll(async () => {
  ts = await startTestServer();
  alice = await makeUser(ts, 400);
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts?.close();
}, SERVER_HOOK_TIMEOUT);

describe('a server without call provider credentials', () => {
  test('offers neither, and refuses them as the organization provider', async () => {
    expect((await registerQueue(ts, alice, { fetchEventTypes: ['realm'] })).state.realm_available_video_chat_providers).toEqual({
      disabled: { name: 'None', id: 0 },
      jitsi_meet: { name: 'Jitsi Meet', id: 1 },
    });
    for (const id of [3, 4, 5, 6, 7])
      assertError(await client(ts, ts.owner).patch('/realm', { video_chat_provider: id }), 'BAD_REQUEST', `Invalid video_chat_provider ${id}`);
    const res = await graphql(ts, ts.owner, 'mutation ($s: JSON!) { updateRealmSettings(settings: $s) { changed } }', { s: { videoChatProvider: 4 } });
    expect(graphqlError(res)).toEqual({ code: 'BAD_REQUEST', message: 'Invalid video_chat_provider 4' });
    assertSuccess(await client(ts, ts.owner).patch('/realm', { video_chat_provider: 0 }));
  });

  test('answers calls with "not configured", over REST, GraphQL and the join link', async () => {
    assertError(
      await client(ts, alice).get('/calls/bigbluebutton/create', { meeting_name: 'Sync' }),
      'BAD_REQUEST',
      'BigBlueButton credentials have not been configured',
    );
    assertError(await client(ts, alice).post('/calls/zoom/create', {}), 'BAD_REQUEST', 'Zoom credentials have not been configured');
    assertError(await client(ts, alice).post('/calls/constructorgroups/create', {}), 'BAD_REQUEST', 'Constructor Groups credentials have not been configured');
    assertError(
      await client(ts, alice).post('/calls/nextcloud_talk/create', { room_name: 'Sync conversation' }),
      'BAD_REQUEST',
      'Nextcloud Talk credentials have not been configured',
    );
    expect(graphqlError(await graphql(ts, alice, 'mutation { createNextcloudTalkCall(roomName: "Sync") { url } }'))).toEqual({
      code: 'BAD_REQUEST',
      message: 'Nextcloud Talk credentials have not been configured',
    });
    expect(graphqlError(await graphql(ts, alice, 'mutation { createZoomCall { url } }'))).toEqual({
      code: 'BAD_REQUEST',
      message: 'Zoom credentials have not been configured',
    });
    expect(graphqlError(await graphql(ts, alice, 'mutation { createBigBlueButtonCall(meetingName: "Sync") { url } }'))).toEqual({
      code: 'BAD_REQUEST',
      message: 'BigBlueButton credentials have not been configured',
    });
    const session = await logIn(ts, alice);
    const res = await fetch(`${ts.url}/calls/bigbluebutton/join?bigbluebutton=abc:def`, { redirect: 'manual', headers: { cookie: cookieHeader(session) } });
    expect({ status: res.status, body: await res.json() }).toEqual({
      status: 400,
      body: { result: 'error', code: 'BAD_REQUEST', msg: 'BigBlueButton credentials have not been configured' },
    });
    for (const path of ['/calls/zoom/register', '/calls/zoom/complete?code=c&state=s']) {
      const zoom = await fetch(`${ts.url}${path}`, { redirect: 'manual', headers: { cookie: cookieHeader(session) } });
      expect({ status: zoom.status, body: await zoom.json() }).toEqual({
        status: 400,
        body: { result: 'error', code: 'BAD_REQUEST', msg: 'Zoom credentials have not been configured' },
      });
    }
    assertError(await client(ts, alice).delete('/calls/zoom', {}), 'BAD_REQUEST', 'Zoom credentials have not been configured');
    expect(graphqlError(await graphql(ts, alice, 'mutation { disconnectZoom }'))).toEqual({
      code: 'BAD_REQUEST',
      message: 'Zoom credentials have not been configured',
    });
  });

  test('calls need credentials', async () => {
    assertError(await client(ts, null).post('/calls/zoom/create', {}), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
  });
});

describe('configuration', () => {
  test('BigBlueButton needs its URL and secret together; the URL ends in a slash', () => {
    expect(loadConfig({ PARLEY_BIGBLUEBUTTON_URL: 'https://bbb.example/bigbluebutton', PARLEY_BIGBLUEBUTTON_SECRET: 's3cret' }).bigBlueButton).toEqual({
      url: 'https://bbb.example/bigbluebutton/',
      secret: 's3cret',
    });
    expect(() => loadConfig({ PARLEY_BIGBLUEBUTTON_URL: 'https://bbb.example/bigbluebutton/' })).toThrow(
      new ConfigError('PARLEY_BIGBLUEBUTTON_SECRET must be set when PARLEY_BIGBLUEBUTTON_URL is'),
    );
    expect(() => loadConfig({ PARLEY_BIGBLUEBUTTON_SECRET: 's3cret' })).toThrow('PARLEY_BIGBLUEBUTTON_URL must be set when PARLEY_BIGBLUEBUTTON_SECRET is');
    expect(() => loadConfig({ PARLEY_BIGBLUEBUTTON_URL: 'ftp://bbb.example/', PARLEY_BIGBLUEBUTTON_SECRET: 's' })).toThrow(
      'PARLEY_BIGBLUEBUTTON_URL must start with http:// or https://',
    );
  });

  test("Zoom's server-to-server app is its account with a client id and secret; the URLs default to Zoom's", () => {
    const zoom = { PARLEY_ZOOM_ACCOUNT_ID: 'acct', PARLEY_ZOOM_CLIENT_ID: 'id', PARLEY_ZOOM_CLIENT_SECRET: 'secret' };
    expect(loadConfig(zoom).zoom).toEqual({
      accountId: 'acct',
      clientId: 'id',
      clientSecret: 'secret',
      apiUrl: 'https://api.zoom.us',
      oauthUrl: 'https://zoom.us',
    });
    expect(loadConfig({ ...zoom, PARLEY_ZOOM_API_URL: 'http://127.0.0.1:9/', PARLEY_ZOOM_OAUTH_URL: 'http://127.0.0.1:8' }).zoom).toMatchObject({
      apiUrl: 'http://127.0.0.1:9',
      oauthUrl: 'http://127.0.0.1:8',
    });
    expect(() => loadConfig({ ...zoom, PARLEY_ZOOM_CLIENT_SECRET: '' })).toThrow('PARLEY_ZOOM_CLIENT_SECRET must be set when PARLEY_ZOOM_ACCOUNT_ID is');
    expect(() => loadConfig({ PARLEY_ZOOM_ACCOUNT_ID: 'acct', PARLEY_ZOOM_CLIENT_SECRET: 'secret' })).toThrow(
      'PARLEY_ZOOM_CLIENT_ID must be set when PARLEY_ZOOM_ACCOUNT_ID is',
    );
  });

  test("Zoom's client id and secret alone are the per-user OAuth app", () => {
    expect(loadConfig({ PARLEY_ZOOM_CLIENT_ID: 'id', PARLEY_ZOOM_CLIENT_SECRET: 'secret' }).zoom).toEqual({
      accountId: null,
      clientId: 'id',
      clientSecret: 'secret',
      apiUrl: 'https://api.zoom.us',
      oauthUrl: 'https://zoom.us',
    });
    expect(() => loadConfig({ PARLEY_ZOOM_CLIENT_ID: 'id' })).toThrow('PARLEY_ZOOM_CLIENT_SECRET must be set when PARLEY_ZOOM_CLIENT_ID is');
    expect(() => loadConfig({ PARLEY_ZOOM_CLIENT_SECRET: 'secret' })).toThrow('PARLEY_ZOOM_CLIENT_ID must be set when PARLEY_ZOOM_CLIENT_SECRET is');
  });
});
