import { assertError, assertSuccess, client, graphql } from '../helpers/api';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { sendDirect, sendToChannel, subscribe } from './helpers';

let ts: TestServer;
let owner: TestUser;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let town: number;
const m: Record<string, number> = {};

const matches = (who: TestUser, params: Record<string, unknown>) => client(ts, who).get('/messages/matches_narrow', params);

beforeAll(async () => {
  ts = await startTestServer();
  owner = ts.owner;
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Builder' });
  carol = await makeUser(ts, 400, { fullName: 'Carol Singer' });
  town = await subscribe(ts, owner, 'town', [owner, alice, bob]);
  m.garden = await sendToChannel(ts, alice, town, 'Gardens & <weeds>', 'first message about gardening');
  m.other = await sendToChannel(ts, bob, town, 'other', 'nothing to see');
  m.dm = await sendDirect(ts, alice, [carol], 'gardening secrets');
}, 120_000);
afterAll(() => ts.close(), 60_000);

describe('GET /messages/matches_narrow', () => {
  test('answers the given messages that match, with the rendered content and escaped topic', async () => {
    const res = assertSuccess(await matches(bob, { msg_ids: [m.garden, m.other], narrow: [['topic', 'Gardens & <weeds>']] }));
    expect(res.messages).toEqual({
      [m.garden]: { match_content: '<p>first message about gardening</p>', match_subject: 'Gardens &amp; &lt;weeds&gt;' },
    });
  });

  test('highlights search terms as GET /messages does', async () => {
    const res = assertSuccess(await matches(bob, { msg_ids: [m.garden, m.other], narrow: [{ operator: 'search', operand: 'garden' }] }));
    expect(Object.keys(res.messages)).toEqual([String(m.garden)]);
    expect(res.messages[m.garden].match_content).toBe('<p>first message about <span class="highlight">gardening</span></p>');
    expect(res.messages[m.garden].match_subject).toBe('<span class="highlight">Gardens</span> &amp; &lt;weeds&gt;');
  });

  test('only messages the user received count; unknown and out-of-range ids are left out', async () => {
    const res = assertSuccess(await matches(bob, { msg_ids: [m.garden, m.dm, 999_999, 2 ** 40], narrow: [] }));
    expect(Object.keys(res.messages)).toEqual([String(m.garden)]);
    const carolSees = assertSuccess(await matches(carol, { msg_ids: [m.garden, m.dm], narrow: [['search', 'gardening']] }));
    expect(Object.keys(carolSees.messages)).toEqual([String(m.dm)]);
    expect(assertSuccess(await matches(bob, { msg_ids: [], narrow: [] })).messages).toEqual({});
  });

  test('parameters are checked as Zulip checks them', async () => {
    assertError(await matches(bob, { narrow: [] }), 'REQUEST_VARIABLE_MISSING', "Missing 'msg_ids' argument");
    assertError(await matches(bob, { msg_ids: [m.garden] }), 'REQUEST_VARIABLE_MISSING', "Missing 'narrow' argument");
    assertError(await matches(bob, { msg_ids: '["x"]', narrow: [] }), 'BAD_REQUEST', 'msg_ids[0] is not an integer');
    assertError(
      await matches(bob, { msg_ids: [m.garden], narrow: [['frobnicate', 'x']] }),
      'BAD_NARROW',
      'Invalid narrow operator: unknown operator frobnicate',
    );
  });

  test('GraphQL answers the same', async () => {
    const res = await graphql(
      ts,
      bob,
      `query($ids: [Int!]!) { messagesMatchingNarrow(messageIds: $ids, narrow: [{operator: "search", operand: "garden"}]) { id matchContent matchTopic } }`,
      { ids: [m.garden, m.other] },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data!.messagesMatchingNarrow).toEqual([
      {
        id: String(m.garden),
        matchContent: '<p>first message about <span class="highlight">gardening</span></p>',
        matchTopic: '<span class="highlight">Gardens</span> &amp; &lt;weeds&gt;',
      },
    ]);
  });
});
