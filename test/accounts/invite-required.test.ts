import { assertSuccess, client } from '../helpers/api';
import { verifyAction } from '../helpers/events';
import { startServerWithProvider, TestProvider, throughProvider } from '../helpers/oidc-provider';
import { SERVER_HOOK_TIMEOUT, TestServer } from '../helpers/server';
import { WebClient } from './web-client';

/**
 * invite_required and the organization's domain rules on a first single sign-on, which signs up
 * the person the provider vouches for (PARLEY_OIDC_CREATE_USERS on), as Zulip's registration does.
 */
let ts: TestServer;
let provider: TestProvider;

beforeAll(async () => {
  ({ ts, provider } = await startServerWithProvider({ PARLEY_OIDC_CREATE_USERS: 'true' }));
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts?.close();
  await provider?.close();
});

const owner = () => client(ts, ts.owner);
const setRealm = async (params: Record<string, unknown>) => assertSuccess(await owner().patch('/realm', params));
const accountOf = (email: string) => ts.server.deps.knex('users').whereRaw('lower(delivery_email) = lower(?)', [email]).first();

/** A whole sign-on as `email`, from the sign-up button to Parley's answer to the callback. */
async function signOn(email: string, name = 'Newcomer Person') {
  provider.nextUser = { sub: `sub-${email}`, email, email_verified: true, name };
  const web = new WebClient(ts);
  const start = await web.get('/accounts/register/social/oidc');
  expect(start.status).toBe(302);
  const callback = new URL(await throughProvider(start.location!, `${ts.server.deps.config.externalUrl}/complete/oidc/`));
  return web.get(callback.pathname + callback.search);
}

async function invite(email: string, params: Record<string, unknown>): Promise<number> {
  assertSuccess(await owner().post('/invites', { invitee_emails: email, ...params }));
  const listed = assertSuccess(await owner().get('/invites')).invites as { id: number; email: string }[];
  return listed.find((i) => i.email === email)!.id;
}

test('invite_required (on by default): an address without an invitation is refused and gets no account', async () => {
  expect(assertSuccess(await owner().post('/register', { fetch_event_types: ['realm'] })).realm_invite_required).toBe(true);
  const res = await signOn('uninvited@example.com');
  expect(res.status).toBe(400);
  expect(res.location).toBeNull();
  expect(res.html).toContain('Please request an invite for uninvited@example.com from the organization administrator.');
  expect(await accountOf('uninvited@example.com')).toBeUndefined();
});

test('invitations that were revoked or have expired do not count', async () => {
  const revoked = await invite('revoked@example.com', { stream_ids: [] });
  assertSuccess(await owner().delete(`/invites/${revoked}`));
  expect((await signOn('revoked@example.com')).html).toContain('Please request an invite for revoked@example.com');

  const expired = await invite('expired@example.com', { stream_ids: [] });
  await ts.server.deps
    .knex('invitations')
    .where({ id: expired })
    .update({ expiry_date: new Date(Date.now() - 60_000) });
  expect((await signOn('expired@example.com')).html).toContain('Please request an invite for expired@example.com');
  expect(await accountOf('revoked@example.com')).toBeUndefined();
  expect(await accountOf('expired@example.com')).toBeUndefined();
});

test("with an invitation, the sign-on creates the account with the invitation's role, channels and groups, and uses it", async () => {
  assertSuccess(await owner().post('/users/me/subscriptions', { subscriptions: [{ name: 'invited room' }] }));
  const streamId = assertSuccess(await owner().get('/get_stream_id', { stream: 'invited room' })).stream_id as number;
  const groupId = assertSuccess(await owner().post('/user_groups/create', { name: 'invited crew', description: '', members: [ts.owner.id] }))
    .group_id as number;
  const inviteId = await invite('Invited.Person@example.com', { stream_ids: [streamId], group_ids: [groupId], invite_as: 300 });

  // The owner's registered state plus the events of the sign-up equals a fresh register.
  const events = await verifyAction(ts, ts.owner, async () => {
    const res = await signOn('invited.person@EXAMPLE.com', 'Invited Person');
    expect(res.status).toBe(302);
    expect(res.location).toBe('/');
  });
  const account = await accountOf('invited.person@example.com');
  expect(account).toMatchObject({ role: 300, full_name: 'Invited Person', password_hash: null, is_active: true });
  expect(events.some((e) => e.type === 'realm_user' && e.op === 'add' && e.person.user_id === account.id)).toBe(true);
  expect(events.some((e) => e.type === 'invites_changed')).toBe(true);

  expect(assertSuccess(await owner().get(`/users/${account.id}/subscriptions/${streamId}`)).is_subscribed).toBe(true);
  expect(assertSuccess(await owner().get(`/user_groups/${groupId}/members/${account.id}`)).is_user_group_member).toBe(true);
  const row = await ts.server.deps.knex('invitations').where({ id: inviteId }).first();
  expect(row).toMatchObject({ status: 1, used_by_id: account.id });
  const listed = assertSuccess(await owner().get('/invites')).invites as { id: number }[];
  expect(listed.map((i) => i.id)).not.toContain(inviteId);
});

test('domain rules apply to the sign-up, whether invite_required is on or off', async () => {
  assertSuccess(await owner().post('/realm/domains', { domain: 'example.com', allow_subdomains: false }));
  await setRealm({ emails_restricted_to_domains: true });
  await setRealm({ invite_required: false });
  try {
    const outside = await signOn('outsider@elsewhere.net');
    expect(outside.status).toBe(400);
    expect(outside.html).toContain(
      'Your email address, outsider@elsewhere.net, is not in one of the domains that are allowed to register for accounts in this organization.',
    );
    const plus = await signOn('some+tag@example.com');
    expect(plus.html).toContain('Email addresses containing + are not allowed in this organization.');
    expect(await accountOf('outsider@elsewhere.net')).toBeUndefined();
    expect(await accountOf('some+tag@example.com')).toBeUndefined();
  } finally {
    await setRealm({ emails_restricted_to_domains: false });
  }
  // Throwaway mailboxes are refused while disallow_disposable_email_addresses is on (its default).
  const disposable = await signOn('someone@mailinator.com');
  expect(disposable.status).toBe(400);
  expect(disposable.html).toContain('Please use your real email address.');
  expect(await accountOf('someone@mailinator.com')).toBeUndefined();
});

test('invite_required off: the sign-on creates a member account as before', async () => {
  // invite_required was turned off by the previous test.
  expect(assertSuccess(await owner().post('/register', { fetch_event_types: ['realm'] })).realm_invite_required).toBe(false);
  const res = await signOn('walk-in@example.com', 'Walk In');
  expect(res.status).toBe(302);
  expect(res.location).toBe('/');
  expect(await accountOf('walk-in@example.com')).toMatchObject({ role: 400, full_name: 'Walk In', password_hash: null });
  // A second sign-on opens the same account.
  const again = await signOn('walk-in@example.com', 'Walk In');
  expect(again.status).toBe(302);
  expect((await ts.server.deps.knex('users').whereRaw('lower(delivery_email) = ?', ['walk-in@example.com'])).length).toBe(1);
});
