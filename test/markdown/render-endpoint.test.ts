import { assertError, assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';

let ts: TestServer;
let ada: TestUser;
let bob: TestUser;
let groupId: number;

beforeAll(async () => {
  ts = await startTestServer();
  ada = await makeUser(ts, 400, { fullName: 'Ada Lovelace' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Gone' });
  assertSuccess(await client(ts, ts.owner).delete(`/users/${bob.id}`));
  const [row] = await ts.server.deps
    .knex('user_groups')
    .insert({ realm_id: ts.server.deps.realmId, name: 'support', description: 'Helpers', is_system_group: false })
    .returning('id');
  groupId = typeof row === 'object' ? row.id : row;
});
afterAll(async () => {
  await ts.close();
});

const render = (content: unknown, who: TestUser = ts.owner) => client(ts, who).post('/messages/render', { content });

describe('POST /messages/render', () => {
  test('renders Markdown', async () => {
    const body = assertSuccess(await render('**foo**'));
    expect(body).toEqual({ result: 'success', msg: '', rendered: '<p><strong>foo</strong></p>' });
  });

  test('resolves mentions of real users, by name and by id', async () => {
    const body = assertSuccess(await render(`@**ada lovelace** and @_**Ada Lovelace|${ada.id}**`));
    expect(body.rendered).toBe(
      `<p><span class="user-mention" data-user-id="${ada.id}">@Ada Lovelace</span> and ` +
        `<span class="user-mention silent" data-user-id="${ada.id}">Ada Lovelace</span></p>`,
    );
  });

  test('deactivated users are mentioned silently; unknown names stay text', async () => {
    const body = assertSuccess(await render('@**Bob Gone** @**Nobody Here**'));
    expect(body.rendered).toBe(`<p><span class="user-mention silent" data-user-id="${bob.id}">Bob Gone</span> @<strong>Nobody Here</strong></p>`);
  });

  test('a name with the wrong id does not render', async () => {
    const body = assertSuccess(await render(`@**Ada Lovelace|${bob.id}**`));
    expect(body.rendered).toBe(`<p>@<strong>Ada Lovelace|${bob.id}</strong></p>`);
  });

  test('resolves user groups, but not role groups', async () => {
    const body = assertSuccess(await render('@*support* @*role:everyone*'));
    expect(body.rendered).toBe(`<p><span class="user-group-mention" data-user-group-id="${groupId}">@support</span> @<em>role:everyone</em></p>`);
  });

  test('wildcards and emoji', async () => {
    const body = assertSuccess(await render('@**all** :tada: 👍'));
    expect(body.rendered).toBe(
      '<p><span class="user-mention channel-wildcard-mention" data-user-id="*">@all</span> ' +
        '<span aria-label="tada" class="emoji emoji-1f389" role="img" title="tada">:tada:</span> ' +
        '<span aria-label="+1" class="emoji emoji-1f44d" role="img" title="+1">:+1:</span></p>',
    );
  });

  test('links channels the author can see, by exact name; others stay text', async () => {
    const channel = async (name: string, extra: Record<string, unknown> = {}) => {
      assertSuccess(await client(ts, ts.owner).post('/users/me/subscriptions', { subscriptions: [{ name }], ...extra }));
      return assertSuccess(await client(ts, ts.owner).get('/get_stream_id', { stream: name })).stream_id as number;
    };
    const open = await channel('town hall');
    const secret = await channel('war room', { invite_only: true });
    const retired = await channel('old news');
    assertSuccess(await client(ts, ts.owner).delete(`/streams/${retired}`));
    const openLink = `<a class="stream" data-stream-id="${open}" href="/#narrow/channel/${open}-town-hall">#town hall</a>`;
    const secretLink = `<a class="stream" data-stream-id="${secret}" href="/#narrow/channel/${secret}-war-room">#war room</a>`;

    const forAda = assertSuccess(await render('#**town hall** #**town hall>plans** #**war room** #**old news** #**Town Hall**', ada));
    expect(forAda.rendered).toBe(
      `<p>${openLink} ` +
        `<a class="stream-topic" data-stream-id="${open}" href="/#narrow/channel/${open}-town-hall/topic/plans">#town hall &gt; plans</a> ` +
        '#<strong>war room</strong> #<strong>old news</strong> #<strong>Town Hall</strong></p>',
    );
    // The owner, an administrator, knows the private channel exists.
    expect(assertSuccess(await render('#**war room**')).rendered).toBe(`<p>${secretLink}</p>`);
    const gql = await graphql(ts, ada, 'query ($c: String!) { renderMessage(content: $c) }', { c: '#**town hall** #**war room**' });
    expect(gql.data).toEqual({ renderMessage: `<p>${openLink} #<strong>war room</strong></p>` });
  });

  test('links into this server become relative', async () => {
    const body = assertSuccess(await render(`${ts.server.deps.config.externalUrl}/#narrow/channel/1-x`));
    expect(body.rendered).toBe(`<p><a href="#narrow/channel/1-x">${ts.server.deps.config.externalUrl}/#narrow/channel/1-x</a></p>`);
  });

  test('raw HTML is escaped', async () => {
    const body = assertSuccess(await render('<script>alert(1)</script>'));
    expect(body.rendered).toBe('<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>');
  });

  test('content past the length limit is cut as sending would cut it', async () => {
    const body = assertSuccess(await render('z'.repeat(12000)));
    expect(body.rendered).toBe(`<p>${'z'.repeat(10000 - 20)}<br>\n[message truncated]</p>`);
  });

  test('empty content renders to nothing', async () => {
    expect(assertSuccess(await render('')).rendered).toBe('');
  });

  test('works for guests and over multipart', async () => {
    const guest = await makeUser(ts, 600);
    expect(assertSuccess(await render('*hi*', guest)).rendered).toBe('<p><em>hi</em></p>');
    const res = await client(ts, ada).post('/messages/render', { content: '~~x~~' }, { multipart: true });
    expect(assertSuccess(res).rendered).toBe('<p><del>x</del></p>');
  });

  test('parameter errors', async () => {
    assertError(await client(ts, ada).post('/messages/render', {}), 'REQUEST_VARIABLE_MISSING', "Missing 'content' argument");
    assertError(await render('a\u0000b'), 'BAD_REQUEST', 'content contains NULL (0x00) characters.');
  });

  test('needs authentication', async () => {
    assertError(
      await client(ts, null).post('/messages/render', { content: 'x' }),
      'UNAUTHORIZED',
      'Not logged in: API authentication or user session required',
      401,
    );
  });
});

describe('GraphQL renderMessage', () => {
  test('as a query and as a mutation', async () => {
    const query = await graphql(ts, ada, 'query ($c: String!) { renderMessage(content: $c) }', { c: `hi @**Ada Lovelace**` });
    expect(query.errors).toBeUndefined();
    expect(query.data).toEqual({ renderMessage: `<p>hi <span class="user-mention" data-user-id="${ada.id}">@Ada Lovelace</span></p>` });
    const mutation = await graphql(ts, ada, 'mutation ($c: String!) { renderMessage(content: $c) }', { c: '**b**' });
    expect(mutation.data).toEqual({ renderMessage: '<p><strong>b</strong></p>' });
  });

  test('needs authentication', async () => {
    const res = await graphql(ts, null, '{ renderMessage(content: "x") }');
    expect(graphqlError(res)).toEqual({ message: 'Not logged in: API authentication or user session required', code: 'UNAUTHORIZED' });
  });
});
