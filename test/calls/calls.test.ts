import { assertError, assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { registerQueue, verifySharedAction } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { cookieHeader, logIn, type BrowserSession } from '../web/browser-session';
import { checkBbbChecksum, FakeBigBlueButton, FakeZoom, startFakeBigBlueButton, startFakeZoom } from './fakes';

const BBB_SECRET = 'bbb-shared-secret-0123456789';
const ZOOM = { accountId: 'acct-42', clientId: 'parley-client', clientSecret: 'zoom-client-secret' };

let bbb: FakeBigBlueButton;
let zoom: FakeZoom;
let ts: TestServer;
let alice: TestUser;
let bob: TestUser;
let aliceSession: BrowserSession;
let bobSession: BrowserSession;

beforeAll(async () => {
  bbb = await startFakeBigBlueButton(BBB_SECRET);
  zoom = await startFakeZoom(ZOOM);
  ts = await startTestServer({
    PARLEY_BIGBLUEBUTTON_URL: bbb.url,
    PARLEY_BIGBLUEBUTTON_SECRET: BBB_SECRET,
    PARLEY_ZOOM_ACCOUNT_ID: ZOOM.accountId,
    PARLEY_ZOOM_CLIENT_ID: ZOOM.clientId,
    PARLEY_ZOOM_CLIENT_SECRET: ZOOM.clientSecret,
    PARLEY_ZOOM_API_URL: zoom.url,
    PARLEY_ZOOM_OAUTH_URL: zoom.url,
  });
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  bob = await makeUser(ts, 600, { fullName: 'Bob Guest' });
  aliceSession = await logIn(ts, alice);
  bobSession = await logIn(ts, bob);
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts?.close();
  await bbb?.close();
  await zoom?.close();
}, SERVER_HOOK_TIMEOUT);

/** Opens a join link as the browser does, without following the redirect. */
async function openJoinLink(path: string, session?: BrowserSession) {
  const res = await fetch(`${ts.url}${path}`, { redirect: 'manual', headers: session ? { cookie: cookieHeader(session) } : {} });
  const text = await res.text();
  return { status: res.status, location: res.headers.get('location'), body: res.status === 302 ? null : JSON.parse(text) };
}

async function bbbLink(who: TestUser, params: Record<string, unknown>): Promise<string> {
  const { url } = assertSuccess(await client(ts, who).get('/calls/bigbluebutton/create', params));
  expect(url).toMatch(/^\/calls\/bigbluebutton\/join\?bigbluebutton=[^&]+$/);
  return url;
}

describe('configured providers', () => {
  test('register lists BigBlueButton and Zoom, and an administrator may choose them', async () => {
    const state = (await registerQueue(ts, alice, { fetchEventTypes: ['realm'] })).state;
    expect(state.realm_available_video_chat_providers).toEqual({
      disabled: { name: 'None', id: 0 },
      jitsi_meet: { name: 'Jitsi Meet', id: 1 },
      big_blue_button: { name: 'BigBlueButton', id: 4 },
      zoom_server_to_server: { name: 'Zoom', id: 5 },
    });
    const events = await verifySharedAction(ts, [alice], async () => assertSuccess(await client(ts, ts.owner).patch('/realm', { video_chat_provider: 4 })));
    expect(events).toEqual([{ type: 'realm', op: 'update', property: 'video_chat_provider', value: 4 }]);
    // Zoom's per-user OAuth app (3) is not offered beside the server-to-server one; unknown ids are refused as before.
    for (const id of [3, 9])
      assertError(await client(ts, ts.owner).patch('/realm', { video_chat_provider: id }), 'BAD_REQUEST', `Invalid video_chat_provider ${id}`);
    assertSuccess(await client(ts, ts.owner).patch('/realm', { video_chat_provider: 5 }));
    expect((await registerQueue(ts, alice, { fetchEventTypes: ['realm'] })).state.realm_video_chat_provider).toBe(5);
  });
});

describe('BigBlueButton', () => {
  test('the creator joins as moderator, another member as viewer; each opening creates the meeting with a valid checksum', async () => {
    const link = await bbbLink(alice, { meeting_name: 'Design review: "Q1"/Q2 & more', voice_only: true });
    const before = bbb.creates.length;

    const asAlice = await openJoinLink(link, aliceSession);
    expect(asAlice.status).toBe(302);
    const join = new URL(asAlice.location!);
    expect(`${join.origin}${join.pathname}`).toBe(`${bbb.url}api/join`);
    expect(checkBbbChecksum('join', join.search.slice(1), BBB_SECRET)).toBe(true);
    const joinParams = Object.fromEntries(join.searchParams);
    expect(joinParams).toMatchObject({ role: 'MODERATOR', fullName: 'Alice Liddell', createTime: bbb.createTime });

    expect(bbb.creates.slice(before)).toEqual([{ meetingID: joinParams.meetingID, name: 'Design review: "Q1"/Q2 & more', lockSettingsDisableCam: 'true' }]);
    expect(joinParams.meetingID).toMatch(/^zulip-\d{12}$/);

    const asBob = await openJoinLink(link, bobSession);
    expect(asBob.status).toBe(302);
    expect(Object.fromEntries(new URL(asBob.location!).searchParams)).toMatchObject({ meetingID: joinParams.meetingID, role: 'VIEWER', fullName: 'Bob Guest' });
    expect(bbb.creates).toHaveLength(before + 2);
    expect(bbb.badChecksums).toBe(0);
  });

  test('the link, as the compose box inserts it, renders as a link on this server', async () => {
    const link = await bbbLink(alice, { meeting_name: 'Rendered' });
    const { rendered } = assertSuccess(await client(ts, alice).post('/messages/render', { content: `[Join video call.](${link})` }));
    expect(rendered).toBe(`<p><a href="${link.replaceAll('&', '&amp;')}">Join video call.</a></p>`);
  });

  test('voice_only defaults to false, and every link names a new meeting', async () => {
    const first = await bbbLink(alice, { meeting_name: 'Standup' });
    const second = await bbbLink(alice, { meeting_name: 'Standup' });
    expect(first).not.toBe(second);
    await openJoinLink(first, aliceSession);
    expect(bbb.creates.at(-1)).toMatchObject({ name: 'Standup', lockSettingsDisableCam: 'false' });
  });

  test('a browser without a session logs in first and comes back to the link', async () => {
    const link = await bbbLink(alice, { meeting_name: 'Later' });
    const before = bbb.creates.length;
    const res = await openJoinLink(link);
    expect(res.status).toBe(302);
    expect(res.location).toBe(`/login/?${new URLSearchParams({ next: link })}`);
    expect(bbb.creates).toHaveLength(before);
  });

  test('an edited or foreign link is refused before BigBlueButton is asked', async () => {
    const link = await bbbLink(alice, { meeting_name: 'Private' });
    const token = new URL(link, ts.url).searchParams.get('bigbluebutton')!;
    const [payload, signature] = token.split(':');
    const data = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...data, moderator: bob.id })).toString('base64url');
    const before = bbb.creates.length;
    for (const bad of [`${forged}:${signature}`, `${payload}:${signature.slice(0, -2)}AA`, payload, 'not-a-link']) {
      const res = await openJoinLink(`/calls/bigbluebutton/join?${new URLSearchParams({ bigbluebutton: bad })}`, bobSession);
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { result: 'error', code: 'BAD_REQUEST', msg: 'Invalid signature.' } });
    }
    const missing = await openJoinLink('/calls/bigbluebutton/join', bobSession);
    expect(missing.body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'bigbluebutton' argument" });
    expect(bbb.creates).toHaveLength(before);
  });

  test("BigBlueButton's refusals and failures are clear errors, never a 500", async () => {
    const link = await bbbLink(alice, { meeting_name: 'Flaky' });
    const cases: [FakeBigBlueButton['mode'], string][] = [
      ['failed', 'BigBlueButton server returned an unexpected error: FAILED'],
      ['http-error', 'Error connecting to the BigBlueButton server: HTTP 502'],
    ];
    bbb.secret = 'the server was given another secret';
    const res = await openJoinLink(link, aliceSession);
    bbb.secret = BBB_SECRET;
    expect(res.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Error authenticating to the BigBlueButton server' });
    try {
      for (const [mode, msg] of cases) {
        bbb.mode = mode;
        const res = await openJoinLink(link, aliceSession);
        expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { result: 'error', code: 'BAD_REQUEST', msg } });
      }
    } finally {
      bbb.mode = 'ok';
    }
  });

  test('meeting_name is required; GraphQL makes the same links', async () => {
    assertError(await client(ts, alice).get('/calls/bigbluebutton/create', {}), 'REQUEST_VARIABLE_MISSING', "Missing 'meeting_name' argument");
    const res = await graphql(ts, bob, 'mutation { createBigBlueButtonCall(meetingName: "From GraphQL", voiceOnly: true) { url } }');
    const link: string = res.data!.createBigBlueButtonCall.url;
    expect(link).toMatch(/^\/calls\/bigbluebutton\/join\?bigbluebutton=/);
    const joined = await openJoinLink(link, bobSession);
    expect(new URL(joined.location!).searchParams.get('role')).toBe('MODERATOR');
    expect(bbb.creates.at(-1)).toMatchObject({ name: 'From GraphQL', lockSettingsDisableCam: 'true' });
  });
});

describe('Zoom', () => {
  test("a meeting is created for the member's Zoom user with one account token, video on or off", async () => {
    zoom.users.add(alice.email);
    const tokensBefore = zoom.issued.length;
    const video = assertSuccess(await client(ts, alice).post('/calls/zoom/create', {}));
    const voice = assertSuccess(await client(ts, alice).post('/calls/zoom/create', { is_video_call: false }));
    expect(video.url).toMatch(/^https:\/\/zoom\.example\/j\/\d+\?pwd=secretpwd$/);
    expect(voice.url).not.toBe(video.url);
    expect(zoom.meetings.slice(-2).map(({ user, body }) => ({ user, body }))).toEqual([
      { user: alice.email, body: { settings: { host_video: true, participant_video: true }, default_password: true } },
      { user: alice.email, body: { settings: { host_video: false, participant_video: false }, default_password: true } },
    ]);
    expect(zoom.issued).toHaveLength(tokensBefore + 1);
    expect(zoom.refusedTokenRequests).toBe(0);

    const res = await graphql(ts, alice, 'mutation { createZoomCall(isVideoCall: false) { url } }');
    expect(res.data!.createZoomCall.url).toMatch(/^https:\/\/zoom\.example\/j\//);
    expect(zoom.meetings.at(-1)!.body.settings).toEqual({ host_video: false, participant_video: false });
  });

  test("the per-user app's routes are refused: members do not connect accounts of their own", async () => {
    const res = await openJoinLink('/calls/zoom/register', aliceSession);
    expect({ status: res.status, body: res.body }).toEqual({
      status: 400,
      body: { result: 'error', code: 'BAD_REQUEST', msg: 'Zoom credentials have not been configured' },
    });
    assertError(await client(ts, alice).delete('/calls/zoom', {}), 'BAD_REQUEST', 'Zoom credentials have not been configured');
    expect(zoom.authorizations).toEqual([]);
  });

  test('a member without a Zoom user gets UNKNOWN_ZOOM_USER', async () => {
    assertError(await client(ts, bob).post('/calls/zoom/create', {}), 'UNKNOWN_ZOOM_USER', 'Unknown Zoom user email');
    expect(graphqlError(await graphql(ts, bob, 'mutation { createZoomCall { url } }'))).toEqual({
      code: 'UNKNOWN_ZOOM_USER',
      message: 'Unknown Zoom user email',
    });
  });

  test('a revoked token fails one call and is replaced on the next', async () => {
    zoom.users.add(alice.email);
    assertSuccess(await client(ts, alice).post('/calls/zoom/create', {}));
    for (const token of zoom.issued) zoom.revoked.add(token);
    const issued = zoom.issued.length;
    assertError(await client(ts, alice).post('/calls/zoom/create', {}), 'BAD_REQUEST', 'Failed to create Zoom call');
    assertSuccess(await client(ts, alice).post('/calls/zoom/create', {}));
    expect(zoom.issued).toHaveLength(issued + 1);
  });

  test("Zoom's failures are clear errors, never a 500", async () => {
    zoom.users.add(alice.email);
    try {
      zoom.mode = 'server-error';
      assertError(await client(ts, alice).post('/calls/zoom/create', {}), 'BAD_REQUEST', 'Failed to create Zoom call');
      zoom.mode = 'hang-up';
      const res = await client(ts, alice).post('/calls/zoom/create', {});
      expect(res.status).toBe(400);
      expect(res.body.msg).toMatch(/^Error connecting to the Zoom server: \S+$/);
    } finally {
      zoom.mode = 'ok';
    }
  });

  test('credentials Zoom refuses are reported as such, and not remembered', async () => {
    zoom.users.add(alice.email);
    assertSuccess(await client(ts, alice).post('/calls/zoom/create', {}));
    for (const token of zoom.issued) zoom.revoked.add(token);
    assertError(await client(ts, alice).post('/calls/zoom/create', {}), 'BAD_REQUEST', 'Failed to create Zoom call');
    zoom.clientSecret = 'rotated-at-zoom';
    try {
      assertError(await client(ts, alice).post('/calls/zoom/create', {}), 'BAD_REQUEST', 'Invalid Zoom credentials');
      expect(zoom.refusedTokenRequests).toBe(1);
    } finally {
      zoom.clientSecret = ZOOM.clientSecret;
    }
    assertSuccess(await client(ts, alice).post('/calls/zoom/create', {}));
  });
});
