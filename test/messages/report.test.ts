import { assertError, assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { captureEvents, fetchMessages, ofType, sendDirect, sendToChannel, subscribe } from './helpers';

let ts: TestServer;
let owner: TestUser;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let town: number;
let moderation: number;

const report = (who: TestUser, id: number, params: Record<string, unknown>) => client(ts, who).post(`/messages/${id}/report`, params);

/** The moderators' view of the latest report. */
async function latestReport() {
  const { messages } = await fetchMessages(ts, owner, { narrow: [{ operator: 'channel', operand: moderation }], num_before: 1, apply_markdown: false });
  return messages[0] as { id: number; subject: string; content: string; sender_email: string };
}

const timeOf = (seconds: number) => `<time:${new Date(seconds * 1000).toISOString().replace(/\.\d+Z$/, '+00:00')}>`;
const mention = (u: TestUser) => `@_**${u.fullName}|${u.id}**`;

beforeAll(async () => {
  ts = await startTestServer();
  owner = ts.owner;
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Builder' });
  carol = await makeUser(ts, 400, { fullName: 'Carol Singer' });
  town = await subscribe(ts, owner, 'town', [owner, alice, bob]);
  moderation = await subscribe(ts, owner, 'moderation', [owner], { invite_only: true });
}, 120_000);
afterAll(() => ts.close(), 60_000);

test('refused while the organization has no moderation request channel', async () => {
  const id = await sendToChannel(ts, bob, town, 'chat', 'hello');
  assertError(await report(alice, id, { report_type: 'spam' }), 'BAD_REQUEST', 'Message reporting is not enabled in this organization.');
  assertSuccess(await client(ts, owner).patch('/realm', { moderation_request_channel_id: moderation }));
});

test('a channel message: the notification bot posts the report in "<sender> moderation", after the commit', async () => {
  const id = await sendToChannel(ts, bob, town, 'chat', 'I squeeze toothpaste from the middle');
  const sent = assertSuccess(await client(ts, alice).get(`/messages/${id}`)).message;
  const events = captureEvents(ts);
  assertSuccess(await report(alice, id, { report_type: 'harassment', description: 'crime against food' }));
  events.stop();
  // The moderation channel's subscribers hear of it; the reporter, not subscribed, does not.
  const heard = events.recipientsOf(ofType('message'));
  expect(heard).toContain(owner.id);
  expect(heard).not.toContain(alice.id);
  const got = await latestReport();
  expect(got.sender_email).toBe('notification-bot@zulip.com');
  expect(got.subject).toBe('Bob Builder moderation');
  expect(got.content).toBe(
    [
      `${mention(alice)} reported a message sent by ${mention(bob)} at ${timeOf(sent.timestamp)}.`,
      '```quote',
      '**Harassment**. crime against food',
      '```',
      '',
      `\`\`\` spoiler Original message at #**town>chat@${id}**`,
      'I squeeze toothpaste from the middle',
      '```',
    ].join('\n'),
  );
});

test('a direct message, reported by its recipient; your own message may be reported too', async () => {
  const id = await sendDirect(ts, bob, [alice], '```\nfenced\n```');
  assertSuccess(await report(alice, id, { report_type: 'other', description: 'rude' }));
  let got = await latestReport();
  expect(got.content.split('\n')[0]).toMatch(new RegExp(`^${escape(mention(alice))} reported a direct message sent by ${escape(mention(bob))} at <time:`));
  expect(got.content).toContain(
    `\`\`\`\` spoiler [Original message](${ts.server.deps.config.externalUrl}/#narrow/dm/${[alice.id, bob.id].sort((a, b) => a - b).join(',')}-dm/near/${id})`,
  );
  expect(got.content.endsWith('```\nfenced\n```\n````')).toBe(true);

  assertSuccess(await report(bob, id, { report_type: 'spam' }));
  got = await latestReport();
  expect(got.content.split('\n')[0]).toContain(`reported a direct message sent by ${mention(bob)} to ${mention(alice)} at`);
});

test('bad input and messages one cannot see change nothing', async () => {
  const id = await sendToChannel(ts, bob, town, 'chat', 'again');
  const before = (await latestReport()).id;
  assertError(await report(alice, id, { report_type: 'harmful' }), 'BAD_REQUEST', 'Invalid report_type');
  assertError(await report(alice, id, { report_type: 'other' }), 'BAD_REQUEST', 'An explanation is required.');
  assertError(
    await report(alice, id, { report_type: 'norms', description: 'x'.repeat(1001) }),
    'BAD_REQUEST',
    'description is too long (limit: 1000 characters)',
  );
  const dm = await sendDirect(ts, bob, [alice], 'between us');
  assertError(await report(carol, dm, { report_type: 'spam' }), 'BAD_REQUEST', 'Invalid message(s)');
  assertError(await report(carol, 99999999, { report_type: 'spam' }), 'BAD_REQUEST', 'Invalid message(s)');
  expect((await latestReport()).id).toBe(before);
});

test('GraphQL reportMessage runs the same action', async () => {
  const id = await sendToChannel(ts, bob, town, 'other topic', 'gql');
  const query = 'mutation($id: Int!, $t: String!, $d: String) { reportMessage(messageId: $id, reportType: $t, description: $d) { messageId } }';
  const ok = await graphql(ts, carol, query, { id, t: 'norms', d: 'not nice' });
  expect(ok.data).toEqual({ reportMessage: { messageId: String(id) } });
  const got = await latestReport();
  expect(got.content).toContain('**Violates community norms**. not nice');
  expect(graphqlError(await graphql(ts, carol, query, { id, t: 'other' }))).toEqual({ message: 'An explanation is required.', code: 'BAD_REQUEST' });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
