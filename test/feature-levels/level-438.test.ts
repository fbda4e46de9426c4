import { registerQueue } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer } from '../helpers/server';

// Feature level 438: POST /register reports realm_owner_full_content_access.
let ts: TestServer;

beforeAll(async () => {
  ts = await startTestServer();
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts?.close();
}, SERVER_HOOK_TIMEOUT);

test.each([
  ['an owner', 100],
  ['a member', 400],
  ['a guest', 600],
] as const)('%s is told owners have no full access to private content (the realm section only)', async (_who, role) => {
  const user = role === 100 ? ts.owner : await makeUser(ts, role);
  const { state } = await registerQueue(ts, user, { fetchEventTypes: ['realm'] });
  expect(state.realm_owner_full_content_access).toBe(false);
  const without = await registerQueue(ts, user, { fetchEventTypes: ['message'] });
  expect(without.state).not.toHaveProperty('realm_owner_full_content_access');
});
