import { assertSuccess, client, graphql } from '../helpers/api';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { captureEvents, fetchMessages, sendDirect, sendToChannel, subscribe } from '../messages/helpers';

let ts: TestServer;
let owner: TestUser;
let alice: TestUser;
let town: number;

beforeAll(async () => {
  ts = await startTestServer();
  owner = ts.owner;
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  town = await subscribe(ts, owner, 'town', [owner, alice]);
  assertSuccess(await client(ts, owner).post('/realm/filters', { pattern: '#(?P<id>[0-9]+)', url_template: 'https://trac.example.com/ticket/{id}' }));
  // A later linkifier overlapping the first loses to it.
  assertSuccess(await client(ts, owner).post('/realm/filters', { pattern: '#1(?P<id>[0-9]+)', url_template: 'https://other.example.com/{id}' }));
}, 120_000);
afterAll(() => ts.close(), 60_000);

const topic = '#123, #45: example.com/docs https://zulip.com/a!';
const expected = [
  { text: '#123', url: 'https://trac.example.com/ticket/123' },
  { text: '#45', url: 'https://trac.example.com/ticket/45' },
  { text: 'example.com/docs', url: 'https://example.com/docs' },
  { text: 'https://zulip.com/a', url: 'https://zulip.com/a' },
];

test('linkifier matches and web links of the topic, in message events and GET /messages', async () => {
  const events = captureEvents(ts);
  const id = await sendToChannel(ts, alice, town, topic, 'hello');
  events.stop();
  const [sent] = events.events('message');
  expect((sent.message as { topic_links: unknown }).topic_links).toEqual(expected);
  const { messages } = await fetchMessages(ts, owner, { narrow: [{ operator: 'channel', operand: town }], num_before: 1 });
  expect(messages[0].id).toBe(id);
  expect(messages[0].topic_links).toEqual(expected);
  const one = assertSuccess(await client(ts, owner).get(`/messages/${id}`)).message;
  expect(one.topic_links).toEqual(expected);
});

test('a topic without links, and direct messages, have none', async () => {
  await sendToChannel(ts, alice, town, 'plain topic', 'hi');
  await sendDirect(ts, alice, [owner], 'psst');
  const { messages } = await fetchMessages(ts, owner, { num_before: 2 });
  expect(messages.map((m: { topic_links: unknown }) => m.topic_links)).toEqual([[], []]);
});

test('renaming a topic sends its new links with the update_message event', async () => {
  const id = await sendToChannel(ts, alice, town, 'old name', 'body');
  const events = captureEvents(ts);
  assertSuccess(await client(ts, alice).patch(`/messages/${id}`, { topic: 'now about #7' }));
  events.stop();
  const [update] = events.events('update_message');
  expect(update.topic_links).toEqual([{ text: '#7', url: 'https://trac.example.com/ticket/7' }]);
});

test('GraphQL Message.topicLinks', async () => {
  const id = await sendToChannel(ts, alice, town, 'see #9', 'gql');
  const res = await graphql(ts, owner, `query { message(id: ${id}) { topicLinks { text url } } }`);
  expect(res.data).toEqual({ message: { topicLinks: [{ text: '#9', url: 'https://trac.example.com/ticket/9' }] } });
});
