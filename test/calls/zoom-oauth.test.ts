import { assertError, assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { registerQueue, verifyPersonalAction } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { cookieHeader, logIn, type BrowserSession } from '../web/browser-session';
import { FakeZoom, startFakeZoom } from './fakes';

/** Zoom's per-user OAuth app: client id and secret without an account id. */
const ZOOM = { clientId: 'parley-user-app', clientSecret: 'zoom-user-app-secret' };

let zoom: FakeZoom;
let ts: TestServer;
let alice: TestUser;
let bob: TestUser;
let aliceSession: BrowserSession;
let bobSession: BrowserSession;

beforeAll(async () => {
  zoom = await startFakeZoom(ZOOM);
  ts = await startTestServer({
    PARLEY_ZOOM_CLIENT_ID: ZOOM.clientId,
    PARLEY_ZOOM_CLIENT_SECRET: ZOOM.clientSecret,
    PARLEY_ZOOM_API_URL: zoom.url,
    PARLEY_ZOOM_OAUTH_URL: zoom.url,
  });
  alice = await makeUser(ts, 400);
  bob = await makeUser(ts, 400);
  aliceSession = await logIn(ts, alice);
  bobSession = await logIn(ts, bob);
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts?.close();
  await zoom?.close();
}, SERVER_HOOK_TIMEOUT);

/** A GET as the browser makes it, without following redirects; JSON bodies parsed. */
async function browse(url: string, session?: BrowserSession) {
  const res = await fetch(url.startsWith('http') ? url : `${ts.url}${url}`, {
    redirect: 'manual',
    headers: session ? { cookie: cookieHeader(session) } : {},
  });
  const text = await res.text();
  const json = res.headers.get('content-type')?.includes('application/json') ? JSON.parse(text) : null;
  return { status: res.status, location: res.headers.get('location'), text, json, headers: res.headers };
}

/** The path and query Zoom sends the browser back to (the server's external URL may differ from ts.url). */
const backHere = (location: string) => {
  const url = new URL(location);
  return `${url.pathname}${url.search}`;
};

/** register → Zoom's consent page → the redirect back, as far as the complete URL (not opened). */
async function consent(session: BrowserSession): Promise<{ authorize: URL; complete: string }> {
  const register = await browse('/calls/zoom/register', session);
  expect(register.status).toBe(302);
  expect(register.headers.get('cache-control')).toBe('no-store');
  const authorize = new URL(register.location!);
  const atZoom = await browse(authorize.href);
  expect(atZoom.status).toBe(302);
  return { authorize, complete: backHere(atZoom.location!) };
}

/** The whole connection of a member's Zoom account; returns the completing page. */
async function connect(session: BrowserSession) {
  const { complete } = await consent(session);
  const page = await browse(complete, session);
  expect(page.status).toBe(200);
  return page;
}

const createCall = (who: TestUser, params: Record<string, unknown> = {}) => client(ts, who).post('/calls/zoom/create', params);

describe("Zoom's per-user OAuth app", () => {
  test('is the Zoom provider offered (id 3), and a member starts without a token', async () => {
    const state = (await registerQueue(ts, alice, { fetchEventTypes: ['realm', 'video_calls'] })).state;
    expect(state.realm_available_video_chat_providers).toEqual({
      disabled: { name: 'None', id: 0 },
      jitsi_meet: { name: 'Jitsi Meet', id: 1 },
      zoom: { name: 'Zoom', id: 3 },
    });
    expect(state.has_zoom_token).toBe(false);
    assertSuccess(await client(ts, ts.owner).patch('/realm', { video_chat_provider: 3 }));
    assertError(await client(ts, ts.owner).patch('/realm', { video_chat_provider: 5 }), 'BAD_REQUEST', 'Invalid video_chat_provider 5');
    assertError(await createCall(alice), 'INVALID_VIDEO_CALL_PROVIDER_TOKEN', 'Invalid Zoom access token');
    expect(zoom.meetings).toEqual([]);
  });

  test('connecting: consent at Zoom, the code exchanged, has_zoom_token announced, a page that closes itself', async () => {
    const { authorize, complete } = await consent(aliceSession);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${zoom.url}/oauth/authorize`);
    expect(Object.fromEntries(authorize.searchParams)).toEqual({
      response_type: 'code',
      client_id: ZOOM.clientId,
      redirect_uri: `${ts.server.deps.config.externalUrl}/calls/zoom/complete`,
      state: expect.stringMatching(/^[\w-]+\.[\w-]+$/),
    });

    let page: Awaited<ReturnType<typeof browse>> | undefined;
    const events = await verifyPersonalAction(ts, alice, bob, async () => {
      page = await browse(complete, aliceSession);
    });
    expect(events).toEqual([{ type: 'has_zoom_token', value: true }]);
    expect(page!.status).toBe(200);
    expect(page!.text).toContain('<script>window.close();</script>');
    expect(page!.headers.get('content-security-policy')).toMatch(/^default-src 'none'; script-src 'sha256-[\w+/=]+'$/);
    expect(zoom.grants.at(-1)).toBe('authorization_code');
    const token = zoom.issued.at(-1)!;

    // The token is sealed at rest and never handed to a client.
    const rows = await ts.server.deps.knex('zoom_tokens').where('user_id', alice.id);
    expect(rows).toHaveLength(1);
    expect(rows[0].sealed).not.toContain(token);
    const state = (await registerQueue(ts, alice)).state;
    expect(state.has_zoom_token).toBe(true);
    expect(JSON.stringify(state)).not.toContain(token);

    // Calls are meetings of the member's own Zoom user, made with their token.
    const video = assertSuccess(await createCall(alice));
    const voice = assertSuccess(await createCall(alice, { is_video_call: false }));
    expect(video.url).toMatch(/^https:\/\/zoom\.example\/j\/\d+\?pwd=secretpwd$/);
    expect(JSON.stringify([video, voice])).not.toContain(token);
    expect(zoom.meetings.slice(-2)).toEqual([
      { user: 'me', token, body: { settings: { host_video: true, participant_video: true }, default_password: true } },
      { user: 'me', token, body: { settings: { host_video: false, participant_video: false }, default_password: true } },
    ]);
    const res = await graphql(ts, alice, 'mutation { createZoomCall(isVideoCall: false) { url } }');
    expect(res.data!.createZoomCall.url).toMatch(/^https:\/\/zoom\.example\/j\//);

    // Bob has connected nothing; Alice's token is hers alone.
    assertError(await createCall(bob), 'INVALID_VIDEO_CALL_PROVIDER_TOKEN', 'Invalid Zoom access token');
  });

  test('an expired token is refreshed with its refresh token first, once for calls made together', async () => {
    zoom.userTokenLifetime = 30; // within the refresh margin: expired as soon as it is stored
    try {
      await connect(aliceSession);
    } finally {
      zoom.userTokenLifetime = 3599;
    }
    const grants = zoom.grants.length;
    const events = await verifyPersonalAction(ts, alice, bob, async () => {
      const calls = await Promise.all([createCall(alice), createCall(alice)]);
      for (const call of calls) assertSuccess(call);
    });
    expect(events).toEqual([{ type: 'has_zoom_token', value: true }]);
    expect(zoom.grants.slice(grants)).toEqual(['refresh_token']);
    const refreshed = zoom.issued.at(-1)!;
    expect(zoom.meetings.slice(-2).map((meeting) => meeting.token)).toEqual([refreshed, refreshed]);
    expect(zoom.refusedTokenRequests).toBe(0);
    // The refreshed token lasts: the next call uses it as it is.
    assertSuccess(await createCall(alice));
    expect(zoom.grants.slice(grants)).toEqual(['refresh_token']);
  });

  test('a token Zoom revoked is forgotten with "Invalid Zoom access token", and has_zoom_token turns false', async () => {
    await connect(aliceSession);
    for (const token of zoom.issued) zoom.revoked.add(token);
    const meetings = zoom.meetings.length;
    const events = await verifyPersonalAction(ts, alice, bob, async () => {
      assertError(await createCall(alice), 'INVALID_VIDEO_CALL_PROVIDER_TOKEN', 'Invalid Zoom access token');
    });
    expect(events).toEqual([{ type: 'has_zoom_token', value: false }]);
    expect(await ts.server.deps.knex('zoom_tokens').where('user_id', alice.id)).toEqual([]);
    // Nothing left to try: the next call is refused without asking Zoom.
    const refused = zoom.refusedTokenRequests;
    assertError(await createCall(alice), 'INVALID_VIDEO_CALL_PROVIDER_TOKEN', 'Invalid Zoom access token');
    expect(graphqlError(await graphql(ts, alice, 'mutation { createZoomCall { url } }'))).toEqual({
      code: 'INVALID_VIDEO_CALL_PROVIDER_TOKEN',
      message: 'Invalid Zoom access token',
    });
    expect(zoom.meetings).toHaveLength(meetings);
    expect(zoom.refusedTokenRequests).toBe(refused);
  });

  test('an expired token whose refresh Zoom refuses is forgotten the same way', async () => {
    zoom.userTokenLifetime = 30;
    try {
      await connect(aliceSession);
    } finally {
      zoom.userTokenLifetime = 3599;
    }
    zoom.refreshTokens.clear();
    const events = await verifyPersonalAction(ts, alice, bob, async () => {
      assertError(await createCall(alice), 'INVALID_VIDEO_CALL_PROVIDER_TOKEN', 'Invalid Zoom access token');
    });
    expect(events).toEqual([{ type: 'has_zoom_token', value: false }]);
    expect((await registerQueue(ts, alice, { fetchEventTypes: ['video_calls'] })).state.has_zoom_token).toBe(false);
  });

  test('a token that cannot be opened (sealed under an earlier client secret) is forgotten the same way', async () => {
    await connect(aliceSession);
    const [{ sealed }] = await ts.server.deps.knex('zoom_tokens').where('user_id', alice.id);
    const [version, iv, tag, data] = sealed.split('.');
    const flipped = Buffer.from(data, 'base64url');
    flipped[0] ^= 1;
    await ts.server.deps
      .knex('zoom_tokens')
      .where('user_id', alice.id)
      .update({ sealed: [version, iv, tag, flipped.toString('base64url')].join('.') });
    const meetings = zoom.meetings.length;
    const events = await verifyPersonalAction(ts, alice, bob, async () => {
      assertError(await createCall(alice), 'INVALID_VIDEO_CALL_PROVIDER_TOKEN', 'Invalid Zoom access token');
    });
    expect(events).toEqual([{ type: 'has_zoom_token', value: false }]);
    expect(zoom.meetings).toHaveLength(meetings);
  });

  test('disconnecting forgets the token, over REST and GraphQL', async () => {
    await connect(aliceSession);
    const events = await verifyPersonalAction(ts, alice, bob, async () => assertSuccess(await client(ts, alice).delete('/calls/zoom', {})));
    expect(events).toEqual([{ type: 'has_zoom_token', value: false }]);
    assertError(await createCall(alice), 'INVALID_VIDEO_CALL_PROVIDER_TOKEN', 'Invalid Zoom access token');

    await connect(aliceSession);
    const viaGraphql = await verifyPersonalAction(ts, alice, bob, async () => {
      expect((await graphql(ts, alice, 'mutation { disconnectZoom }')).data).toEqual({ disconnectZoom: true });
    });
    expect(viaGraphql).toEqual([{ type: 'has_zoom_token', value: false }]);
  });

  test('a forged or foreign state is refused before Zoom is asked for a token', async () => {
    const { complete } = await consent(aliceSession);
    const url = new URL(complete, ts.url);
    const code = url.searchParams.get('code')!;
    const state = url.searchParams.get('state')!;
    const [payload, signature] = state.split('.');
    const data = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const asBob = Buffer.from(JSON.stringify({ ...data, user: bob.id })).toString('base64url');
    const completeWith = (s: string) => `/calls/zoom/complete?${new URLSearchParams({ code, state: s })}`;
    const invalid = { status: 400, json: { result: 'error', code: 'BAD_REQUEST', msg: 'Invalid Zoom session identifier' } };
    const grants = zoom.grants.length;
    const refused = zoom.refusedTokenRequests;

    const cases: [string, BrowserSession][] = [
      [completeWith(`${asBob}.${signature}`), bobSession], // edited to name Bob
      [completeWith(`${payload}.${signature.slice(0, -2)}AA`), aliceSession], // a bad signature
      [completeWith(payload), aliceSession],
      [completeWith('{"realm":"","sid":""}'), aliceSession], // Zulip's own state shape
      [complete, bobSession], // Alice's round trip finished in Bob's browser
      [complete, await logIn(ts, alice)], // another session of Alice's
    ];
    for (const [path, session] of cases) {
      const res = await browse(path, session);
      expect({ status: res.status, json: res.json }).toEqual(invalid);
    }
    const missing = await browse(`/calls/zoom/complete?${new URLSearchParams({ state })}`, aliceSession);
    expect(missing.json).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'code' argument" });
    expect(zoom.grants).toHaveLength(grants);
    expect(zoom.refusedTokenRequests).toBe(refused);

    // The untouched round trip still works once; Zoom refuses a code used twice.
    expect((await browse(complete, aliceSession)).status).toBe(200);
    const again = await browse(complete, aliceSession);
    expect({ status: again.status, json: again.json }).toEqual({
      status: 400,
      json: { result: 'error', code: 'BAD_REQUEST', msg: 'Invalid Zoom credentials' },
    });
  });

  test('a browser without a session logs in first and comes back', async () => {
    const authorizations = zoom.authorizations.length;
    for (const path of ['/calls/zoom/register', '/calls/zoom/complete?code=c&state=s']) {
      const res = await browse(path);
      expect({ status: res.status, location: res.location }).toEqual({ status: 302, location: `/login/?${new URLSearchParams({ next: path })}` });
    }
    expect(zoom.authorizations).toHaveLength(authorizations);
    assertError(await client(ts, null).delete('/calls/zoom', {}), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
  });
});
