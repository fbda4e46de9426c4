import { navigationViewsSlice } from '../../src/core/navigation-views/state';
import { User } from '../../src/core/users/model';
import { assertError, assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { captureEvents } from '../helpers/events';
import { defaultRegisterOptions } from '../helpers/register-options';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';

let ts: TestServer;
let alice: TestUser;
let bob: TestUser;
beforeAll(async () => {
  ts = await startTestServer();
  alice = await makeUser(ts, 400);
  bob = await makeUser(ts, 600);
}, 120_000);
afterAll(async () => {
  await ts.close();
});

const list = async (who: TestUser) => assertSuccess(await client(ts, who).get('/navigation_views')).navigation_views;
const path = (fragment: string) => `/navigation_views/${fragment}`;

describe('POST /navigation_views', () => {
  test('adds built-in and custom views, with add events to the user', async () => {
    const me = await makeUser(ts, 400);
    const events = captureEvents(ts);
    try {
      assertSuccess(await client(ts, me).post('/navigation_views', { fragment: 'inbox', is_pinned: false }));
      assertSuccess(await client(ts, me).post('/navigation_views', { fragment: ' narrow/channel/9-ops ', is_pinned: true, name: ' Ops ' }));
      expect(events.ofType('navigation_view')).toEqual([
        { event: { type: 'navigation_view', op: 'add', navigation_view: { fragment: 'inbox', is_pinned: false, name: null } }, userIds: [me.id] },
        {
          event: { type: 'navigation_view', op: 'add', navigation_view: { fragment: 'narrow/channel/9-ops', is_pinned: true, name: 'Ops' } },
          userIds: [me.id],
        },
      ]);
    } finally {
      events.stop();
    }
    expect(await list(me)).toEqual([
      { fragment: 'inbox', is_pinned: false, name: null },
      { fragment: 'narrow/channel/9-ops', is_pinned: true, name: 'Ops' },
    ]);
  });

  test('every built-in view refuses a custom name', async () => {
    for (const fragment of ['inbox', 'recent', 'feed', 'drafts', 'narrow/has/reaction/sender/me', 'narrow/is/mentioned', 'narrow/is/starred']) {
      assertError(
        await client(ts, alice).post('/navigation_views', { fragment, is_pinned: true, name: 'Mine' }),
        'BAD_REQUEST',
        'Built-in views cannot have a custom name',
      );
    }
  });

  test('custom views need a name', async () => {
    assertError(
      await client(ts, alice).post('/navigation_views', { fragment: 'narrow/is/dm', is_pinned: true }),
      'BAD_REQUEST',
      'Custom views must have a valid name.',
    );
    assertError(
      await client(ts, alice).post('/navigation_views', { fragment: 'narrow/is/dm', is_pinned: true, name: '  ' }),
      'BAD_REQUEST',
      'name cannot be blank',
    );
  });

  test('parameters are checked', async () => {
    assertError(await client(ts, alice).post('/navigation_views', { fragment: ' ', is_pinned: true }), 'BAD_REQUEST', 'fragment cannot be blank');
    assertError(await client(ts, alice).post('/navigation_views', { fragment: 'inbox' }), 'REQUEST_VARIABLE_MISSING', "Missing 'is_pinned' argument");
    assertError(await client(ts, alice).post('/navigation_views', { is_pinned: true }), 'REQUEST_VARIABLE_MISSING', "Missing 'fragment' argument");
    assertError(await client(ts, alice).post('/navigation_views', { fragment: 'inbox', is_pinned: 1 }), 'BAD_REQUEST', 'is_pinned is not a boolean');
  });

  test('a fragment or name already used is refused', async () => {
    const me = await makeUser(ts, 400);
    assertSuccess(await client(ts, me).post('/navigation_views', { fragment: 'recent', is_pinned: true }));
    assertSuccess(await client(ts, me).post('/navigation_views', { fragment: 'narrow/is/dm', is_pinned: true, name: 'DMs' }));
    assertError(await client(ts, me).post('/navigation_views', { fragment: 'recent', is_pinned: false }), 'BAD_REQUEST', 'Navigation view already exists.');
    assertError(
      await client(ts, me).post('/navigation_views', { fragment: 'narrow/is/unread', is_pinned: true, name: 'DMs' }),
      'BAD_REQUEST',
      'Navigation view already exists.',
    );
    // Another user may use the same fragment and name.
    const other = await makeUser(ts, 400);
    assertSuccess(await client(ts, other).post('/navigation_views', { fragment: 'narrow/is/dm', is_pinned: false, name: 'DMs' }));
  });
});

describe('PATCH /navigation_views/{fragment}', () => {
  test('pins and hides a view (fragments with slashes), with update events', async () => {
    const me = await makeUser(ts, 400);
    assertSuccess(await client(ts, me).post('/navigation_views', { fragment: 'narrow/is/starred', is_pinned: false }));
    const events = captureEvents(ts);
    try {
      assertSuccess(await client(ts, me).patch(path('narrow/is/starred'), { is_pinned: true }));
      expect(await list(me)).toEqual([{ fragment: 'narrow/is/starred', is_pinned: true, name: null }]);
      assertSuccess(await client(ts, me).patch(path('narrow%2Fis%2Fstarred'), { is_pinned: false }));
      expect(await list(me)).toEqual([{ fragment: 'narrow/is/starred', is_pinned: false, name: null }]);
      expect(events.ofType('navigation_view')).toEqual([
        { event: { type: 'navigation_view', op: 'update', fragment: 'narrow/is/starred', data: { is_pinned: true } }, userIds: [me.id] },
        { event: { type: 'navigation_view', op: 'update', fragment: 'narrow/is/starred', data: { is_pinned: false } }, userIds: [me.id] },
      ]);
    } finally {
      events.stop();
    }
  });

  test('renames a custom view', async () => {
    const me = await makeUser(ts, 400);
    assertSuccess(await client(ts, me).post('/navigation_views', { fragment: 'narrow/channel/3-x/topic/y', is_pinned: true, name: 'Y' }));
    assertSuccess(await client(ts, me).patch(path('narrow/channel/3-x/topic/y'), { name: 'Topic Y', is_pinned: false }));
    expect(await list(me)).toEqual([{ fragment: 'narrow/channel/3-x/topic/y', is_pinned: false, name: 'Topic Y' }]);
  });

  test('built-in views cannot take a name', async () => {
    const me = await makeUser(ts, 400);
    assertSuccess(await client(ts, me).post('/navigation_views', { fragment: 'inbox', is_pinned: true }));
    assertError(await client(ts, me).patch(path('inbox'), { name: 'My inbox' }), 'BAD_REQUEST', 'Built-in views cannot have a custom name');
    expect(await list(me)).toEqual([{ fragment: 'inbox', is_pinned: true, name: null }]);
  });

  test('a name in use by another view of the user is refused', async () => {
    const me = await makeUser(ts, 400);
    assertSuccess(await client(ts, me).post('/navigation_views', { fragment: 'narrow/is/a', is_pinned: true, name: 'A' }));
    assertSuccess(await client(ts, me).post('/navigation_views', { fragment: 'narrow/is/b', is_pinned: true, name: 'B' }));
    assertError(await client(ts, me).patch(path('narrow/is/b'), { name: 'A' }), 'BAD_REQUEST', 'Navigation view already exists.');
  });

  test('an unknown view, or another user view, is not found', async () => {
    assertSuccess(await client(ts, bob).post('/navigation_views', { fragment: 'narrow/is/bobs', is_pinned: true, name: 'Bob' }));
    for (const fragment of ['narrow/is/bobs', 'narrow/is/nothing', 'feed']) {
      assertError(await client(ts, alice).patch(path(fragment), { is_pinned: false }), 'NOT_FOUND', 'Navigation view does not exist.', 404);
    }
    expect(await list(bob)).toEqual([{ fragment: 'narrow/is/bobs', is_pinned: true, name: 'Bob' }]);
  });
});

describe('DELETE /navigation_views/{fragment}', () => {
  test('removes the view with a remove event', async () => {
    const me = await makeUser(ts, 400);
    assertSuccess(await client(ts, me).post('/navigation_views', { fragment: 'narrow/has/reaction/sender/me', is_pinned: true }));
    const events = captureEvents(ts);
    try {
      assertSuccess(await client(ts, me).delete(path('narrow/has/reaction/sender/me')));
      expect(events.ofType('navigation_view')).toEqual([
        { event: { type: 'navigation_view', op: 'remove', fragment: 'narrow/has/reaction/sender/me' }, userIds: [me.id] },
      ]);
    } finally {
      events.stop();
    }
    expect(await list(me)).toEqual([]);
    assertError(await client(ts, me).delete(path('narrow/has/reaction/sender/me')), 'NOT_FOUND', 'Navigation view does not exist.', 404);
  });

  test('another user view cannot be removed', async () => {
    const theirs = await makeUser(ts, 400);
    assertSuccess(await client(ts, theirs).post('/navigation_views', { fragment: 'recent', is_pinned: true }));
    assertError(await client(ts, ts.owner).delete(path('recent')), 'NOT_FOUND', 'Navigation view does not exist.', 404);
    expect(await list(theirs)).toEqual([{ fragment: 'recent', is_pinned: true, name: null }]);
  });
});

describe('register slice', () => {
  test('fetches the views and applies events idempotently', async () => {
    const me = await makeUser(ts, 400);
    assertSuccess(await client(ts, me).post('/navigation_views', { fragment: 'inbox', is_pinned: true }));
    const user = (await User.query(ts.server.deps.knex).findById(me.id))!;
    const state = await navigationViewsSlice.fetch(ts.server.deps, user, defaultRegisterOptions);
    expect(state).toEqual({ navigation_views: [{ fragment: 'inbox', is_pinned: true, name: null }] });
    const apply = (event: any) => navigationViewsSlice.apply!(state, event, user, defaultRegisterOptions);
    const custom = { fragment: 'narrow/is/x', is_pinned: false, name: 'X' };
    apply({ type: 'navigation_view', op: 'add', navigation_view: custom });
    apply({ type: 'navigation_view', op: 'add', navigation_view: custom });
    apply({ type: 'navigation_view', op: 'update', fragment: 'narrow/is/x', data: { is_pinned: true } });
    apply({ type: 'navigation_view', op: 'update', fragment: 'narrow/is/x', data: { is_pinned: true } });
    apply({ type: 'navigation_view', op: 'remove', fragment: 'inbox' });
    apply({ type: 'navigation_view', op: 'remove', fragment: 'inbox' });
    expect(state).toEqual({ navigation_views: [{ fragment: 'narrow/is/x', is_pinned: true, name: 'X' }] });
  });
});

describe('GraphQL', () => {
  test('adds, lists, updates and removes views through the same rules', async () => {
    const me = await makeUser(ts, 400);
    const added = await graphql(
      ts,
      me,
      'mutation { addNavigationView(fragment: "narrow/is/alerted", isPinned: true, name: "Alerts") { fragment isPinned name } }',
    );
    expect(added.data!.addNavigationView).toEqual({ fragment: 'narrow/is/alerted', isPinned: true, name: 'Alerts' });
    const updated = await graphql(ts, me, 'mutation { updateNavigationView(fragment: "narrow/is/alerted", isPinned: false) { isPinned name } }');
    expect(updated.data!.updateNavigationView).toEqual({ isPinned: false, name: 'Alerts' });
    expect((await graphql(ts, me, '{ navigationViews { fragment } }')).data!.navigationViews).toEqual([{ fragment: 'narrow/is/alerted' }]);
    expect(graphqlError(await graphql(ts, me, 'mutation { addNavigationView(fragment: "inbox", isPinned: true, name: "X") { name } }'))).toEqual({
      code: 'BAD_REQUEST',
      message: 'Built-in views cannot have a custom name',
    });
    expect(graphqlError(await graphql(ts, alice, 'mutation { removeNavigationView(fragment: "narrow/is/alerted") { id } }'))).toEqual({
      code: 'NOT_FOUND',
      message: 'Navigation view does not exist.',
    });
    expect((await graphql(ts, me, 'mutation { removeNavigationView(fragment: "narrow/is/alerted") { id } }')).data).toEqual({
      removeNavigationView: { id: 'narrow/is/alerted' },
    });
  });
});
