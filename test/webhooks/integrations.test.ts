import { assertSuccess, client } from '../helpers/api';
import { makeUser, startTestServer, SERVER_HOOK_TIMEOUT, TestServer, TestUser } from '../helpers/server';
import { fixture, newestMessage, postWebhook } from './helpers';

// Each integration's payloads, posted as the third party posts them, become the messages Zulip's
// integrations write.
let ts: TestServer;
let alice: TestUser;
let apiKey: string;

beforeAll(async () => {
  ts = await startTestServer();
  alice = await makeUser(ts, 400, { fullName: 'Alice Hooks' });
  assertSuccess(await client(ts, alice).post('/users/me/subscriptions', { subscriptions: [{ name: 'alerts' }] }));
  apiKey = assertSuccess(await client(ts, alice).post('/bots', { full_name: 'Hook Bot', short_name: 'hook', bot_type: 2 })).api_key;
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
}, SERVER_HOOK_TIMEOUT);

async function deliver(integration: string, name: string, headers: Record<string, string> = {}, query: Record<string, string> = {}) {
  const res = await postWebhook(ts, integration, { api_key: apiKey, stream: 'alerts', ...query }, fixture(integration, name), headers);
  expect(res).toEqual({ status: 200, body: { result: 'success', msg: '' } });
  const message = await newestMessage(ts, alice, [{ operator: 'channel', operand: 'alerts' }]);
  return { topic: message!.subject as string, content: message!.content as string, sender: message!.sender_full_name as string };
}

describe('GitHub', () => {
  const github = (name: string, event: string, query: Record<string, string> = {}) => deliver('github', name, { 'X-GitHub-Event': event }, query);

  test('push', async () => {
    expect(await github('push', 'push')).toEqual({
      topic: 'lighthouse / main',
      sender: 'Hook Bot',
      content:
        'adakeeper [pushed](https://github.com/octo-org/lighthouse/compare/9049f1265b7d...0d1a26e67d8f) 2 commits to branch main. Commits by adakeeper (1) and bentide (1).\n\n' +
        '* Fix the beam angle ([0d1a26e67d8](https://github.com/octo-org/lighthouse/commit/0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c))\n' +
        '* Oil the gears ([1b2c3d4e5f6](https://github.com/octo-org/lighthouse/commit/1b2c3d4e5f60718293a4b5c6d7e8f90123456789))',
    });
  });

  test('a tag push', async () => {
    expect(await github('push_tag', 'push')).toMatchObject({ topic: 'lighthouse', content: 'adakeeper pushed tag v2.0.' });
  });

  test('pushes to branches the URL does not list are left out', async () => {
    const before = await newestMessage(ts, alice);
    const res = await postWebhook(ts, 'github', { api_key: apiKey, stream: 'alerts', branches: 'release,stable' }, fixture('github', 'push'), {
      'X-GitHub-Event': 'push',
    });
    expect(res.status).toBe(200);
    expect((await newestMessage(ts, alice))!.id).toBe(before!.id);
  });

  test('issues', async () => {
    expect(await github('issues_opened', 'issues')).toMatchObject({
      topic: 'lighthouse / issue #42 Fog horn too quiet',
      content: 'bentide opened [issue #42](https://github.com/octo-org/lighthouse/issues/42):\n\n~~~ quote\nShips cannot hear it past the reef.\n~~~',
    });
    expect(await github('issues_assigned', 'issues')).toMatchObject({
      content: 'bentide assigned adakeeper to [issue #42](https://github.com/octo-org/lighthouse/issues/42).',
    });
  });

  test('a topic in the URL puts the title into the message', async () => {
    expect(await github('issues_opened', 'issues', { topic: 'triage' })).toMatchObject({
      topic: 'triage',
      content:
        'bentide opened [issue #42 Fog horn too quiet](https://github.com/octo-org/lighthouse/issues/42):\n\n~~~ quote\nShips cannot hear it past the reef.\n~~~',
    });
  });

  test('pull requests', async () => {
    expect(await github('pull_request_opened', 'pull_request')).toMatchObject({
      topic: 'lighthouse / PR #7 Brighter lamp',
      content:
        'adakeeper opened [PR #7](https://github.com/octo-org/lighthouse/pull/7) from `adakeeper:led` to `octo-org:main`:\n\n~~~ quote\nSwaps the bulb for an LED array.\n~~~',
    });
    expect(await github('pull_request_closed', 'pull_request')).toMatchObject({
      topic: 'lighthouse / PR #7 Brighter lamp',
      content: 'bentide merged [PR #7](https://github.com/octo-org/lighthouse/pull/7).',
    });
  });

  test('ping', async () => {
    expect(await github('ping', 'ping')).toMatchObject({ topic: 'lighthouse', content: 'GitHub webhook has been successfully configured by adakeeper.' });
  });

  test('only_events and exclude_events filter what is reported', async () => {
    const before = await newestMessage(ts, alice);
    const post = (query: Record<string, string>) =>
      postWebhook(ts, 'github', { api_key: apiKey, stream: 'alerts', ...query }, fixture('github', 'ping'), { 'X-GitHub-Event': 'ping' });
    expect((await post({ only_events: JSON.stringify(['push_*', 'issues']) })).status).toBe(200);
    expect((await post({ exclude_events: JSON.stringify(['p?ng']) })).status).toBe(200);
    expect((await newestMessage(ts, alice))!.id).toBe(before!.id);
    expect((await post({ only_events: JSON.stringify(['pi*']) })).status).toBe(200);
    expect((await newestMessage(ts, alice))!.id).toBeGreaterThan(before!.id);
  });

  test('events it does not handle, and a missing event header', async () => {
    const star = await postWebhook(ts, 'github', { api_key: apiKey, stream: 'alerts' }, fixture('github', 'ping'), {
      'X-GitHub-Event': 'sponsorship_surprise',
    });
    expect(star).toEqual({
      status: 400,
      body: {
        result: 'error',
        code: 'UNSUPPORTED_WEBHOOK_EVENT_TYPE',
        msg: "The 'sponsorship_surprise' event isn't currently supported by the GitHub webhook; ignoring",
        webhook_name: 'GitHub',
        event_type: 'sponsorship_surprise',
      },
    });
    const missing = await postWebhook(ts, 'github', { api_key: apiKey, stream: 'alerts' }, fixture('github', 'ping'));
    expect(missing).toEqual({
      status: 400,
      body: { result: 'error', code: 'MISSING_HTTP_EVENT_HEADER', msg: "Missing the HTTP event header 'X-GitHub-Event'", header: 'X-GitHub-Event' },
    });
  });
});

describe('GitLab', () => {
  const gitlab = (name: string, event: string) => deliver('gitlab', name, { 'X-Gitlab-Event': event });

  test('push', async () => {
    expect(await gitlab('push_hook', 'Push Hook')).toMatchObject({
      topic: 'tide-tables / develop',
      content:
        'Cora Reef [pushed](https://gitlab.example.com/harbor/tide-tables/-/compare/95790bf891e76fee5e1747ab589903a6a1f80f22...da1560886d4f094c3e6c9ef40349f7d38b5d27d7) 1 commit to branch develop.\n\n' +
        '* Add the spring tides ([da1560886d4](https://gitlab.example.com/harbor/tide-tables/-/commit/da1560886d4f094c3e6c9ef40349f7d38b5d27d7))',
    });
  });

  test('an issue', async () => {
    expect(await gitlab('issue_hook__open', 'Issue Hook')).toMatchObject({
      topic: 'tide-tables / issue #3 Neap tide missing',
      content:
        'Cora Reef created [issue #3](https://gitlab.example.com/harbor/tide-tables/-/issues/3) (assigned to Dan Harbor and Eve Pier):\n\n~~~ quote\n\nThe table skips the neap tide of March.\n~~~',
    });
  });

  test('merge requests', async () => {
    expect(await gitlab('merge_request_hook__open', 'Merge Request Hook')).toMatchObject({
      topic: 'tide-tables / MR #5 Spring tides',
      content:
        'Dan Harbor created [MR #5](https://gitlab.example.com/harbor/tide-tables/-/merge_requests/5) from `spring` to `main`:\n\n~~~ quote\nAdds the spring tides for 2026.\n~~~',
    });
    expect(await gitlab('merge_request_hook__merge', 'Merge Request Hook')).toMatchObject({
      content: 'Eve Pier merged [MR #5](https://gitlab.example.com/harbor/tide-tables/-/merge_requests/5).',
    });
  });
});

describe('Grafana', () => {
  test('a unified alert', async () => {
    expect(await deliver('grafana', 'alert_firing')).toMatchObject({
      topic: '[LampOutage]',
      content:
        ':alert: **FIRING**\n\n**LampOutage**\n\nThis alert was fired at <time:2026-11-20T03:04:05.123000+00:00>.\n\n' +
        'Labels:\n- alertname: LampOutage\n- site: north-point\n\nValues:\n- B: 0\n- C: 1\n\n' +
        'Annotations:\n- summary: The lamp has been dark for 5 minutes\n\n' +
        '[Generator](https://grafana.example.com/alerting/grafana/abc/view)\n[Silence](https://grafana.example.com/alerting/silence/new?alertmanager=grafana)',
    });
  });

  test('a legacy alert', async () => {
    expect(await deliver('grafana', 'legacy_alerting')).toMatchObject({
      topic: '[Alerting] Wave height',
      content:
        ':alert: **ALERTING**\n\n[Wave height](https://grafana.example.com/d/waves?fullscreen&edit&tab=alert&panelId=2&orgId=1)\n\nWaves above the breakwater\n\n**height:** 7\n\n[Click to view visualization](https://grafana.example.com/render/waves.png)',
    });
  });
});

describe('Slack-compatible and generic JSON', () => {
  test('a Slack message with attachments, posted as JSON', async () => {
    expect(await deliver('slack_incoming', 'attachments')).toMatchObject({
      topic: 'deploys',
      content:
        '## [Release notes](https://ci.example.com/builds/88/notes)\n\nSpring tides added\n\n**Environment**: production\n**Duration**: 3m 12s\n\nCI\n\n' +
        'Deploy of **tide-tables** finished: [build 88](https://ci.example.com/builds/88)',
    });
  });

  test('a Slack message posted as a form field, with the topic from the URL', async () => {
    const res = await fetch(`${ts.url}/api/v1/external/slack_incoming?api_key=${apiKey}&stream=alerts&topic=ops`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ payload: JSON.stringify({ text: 'Backup _done_' }) }).toString(),
    });
    expect(res.status).toBe(200);
    expect(await newestMessage(ts, alice)).toMatchObject({ subject: 'ops', content: 'Backup *done*' });
  });

  test('any JSON document', async () => {
    const res = await postWebhook(ts, 'json', { api_key: apiKey, stream: 'alerts' }, JSON.stringify({ level: 3, place: 'Île' }));
    expect(res.status).toBe(200);
    expect(await newestMessage(ts, alice)).toMatchObject({ subject: 'JSON', content: '```json\n{\n  "level": 3,\n  "place": "\\u00cele"\n}\n```' });
  });
});

describe('addressing and authentication', () => {
  test('without a channel the bot writes to its owner', async () => {
    const res = await postWebhook(ts, 'json', { api_key: apiKey }, JSON.stringify({ direct: true }));
    expect(res.status).toBe(200);
    const message = await newestMessage(ts, alice);
    expect(message).toMatchObject({ type: 'private', sender_full_name: 'Hook Bot', content: expect.stringContaining('"direct": true') });
  });

  test('a channel that does not exist drops the message', async () => {
    const before = await newestMessage(ts, alice);
    const res = await postWebhook(ts, 'json', { api_key: apiKey, stream: 'nowhere' }, '{}');
    expect(res).toEqual({ status: 200, body: { result: 'success', msg: '' } });
    expect((await newestMessage(ts, alice))!.id).toBe(before!.id);
  });

  test('HTTP Basic works as well as api_key; bad or missing keys are refused', async () => {
    const bot = assertSuccess(await client(ts, alice).get('/bots')).bots.find((b: { full_name: string }) => b.full_name === 'Hook Bot');
    const basic = `Basic ${Buffer.from(`${bot.username}:${apiKey}`).toString('base64')}`;
    expect((await postWebhook(ts, 'json', { stream: 'alerts' }, '{"basic": 1}', { authorization: basic })).status).toBe(200);
    expect(await postWebhook(ts, 'json', { stream: 'alerts' }, '{}')).toEqual({
      status: 400,
      body: { result: 'error', code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'api_key' argument", var_name: 'api_key' },
    });
    const wrong = await postWebhook(ts, 'json', { api_key: 'x'.repeat(32), stream: 'alerts' }, '{}');
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ code: 'UNAUTHORIZED', msg: 'Invalid API key' });
  });

  test('unknown integrations and malformed documents', async () => {
    expect((await postWebhook(ts, 'teapot', { api_key: apiKey }, '{}')).status).toBe(404);
    expect(await postWebhook(ts, 'json', { api_key: apiKey, stream: 'alerts' }, '{not json')).toEqual({
      status: 400,
      body: { result: 'error', code: 'BAD_REQUEST', msg: 'Malformed JSON' },
    });
    const missingField = await postWebhook(ts, 'github', { api_key: apiKey, stream: 'alerts' }, '{"sender": {"login": "x"}}', { 'X-GitHub-Event': 'issues' });
    expect(missingField.body).toMatchObject({ result: 'error', msg: 'payload["action"] is missing' });
  });
});

test('register lists the integrations this server offers', async () => {
  const state = assertSuccess(await client(ts, alice).post('/register', { fetch_event_types: ['realm_incoming_webhook_bots'] }));
  const names = state.realm_incoming_webhook_bots.map((i: { name: string }) => i.name).sort();
  expect(names).toEqual(['github', 'gitlab', 'grafana', 'json', 'slack_incoming']);
  expect(state.realm_incoming_webhook_bots.find((i: { name: string }) => i.name === 'grafana')).toEqual({
    name: 'grafana',
    display_name: 'Grafana',
    all_event_types: ['ok', 'pending', 'alerting', 'paused', 'firing', 'resolved'],
    config_options: [],
    url_options: [],
  });
});
