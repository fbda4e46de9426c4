import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { listOutbox } from '../../src/core/email/outbox';
import { assertSuccess, client } from '../helpers/api';
import { verifyActionFor, withoutIds } from '../helpers/events';
import { makeUser, startTestServer, SERVER_HOOK_TIMEOUT, TestServer, TestUser } from '../helpers/server';

// Invitations are not in the register state: administrators and the inviter are told to refetch
// them (invites_changed). An accepted invitation creates an account everyone hears of.
let ts: TestServer;
let dataDir: string;
let owner: TestUser;
let admin: TestUser;
let inviter: TestUser;
let other: TestUser;
let guest: TestUser;
let publicChannel: number;
let privateChannel: number;
let group: number;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-invite-events-'));
  ts = await startTestServer({ DATA_DIR: dataDir });
  owner = ts.owner;
  admin = await makeUser(ts, 200);
  inviter = await makeUser(ts, 400);
  other = await makeUser(ts, 400);
  guest = await makeUser(ts, 600);
  publicChannel = await channel('lobby', [owner.id, other.id, guest.id]);
  privateChannel = await channel('inner-circle', [owner.id, inviter.id], true);
  group = assertSuccess(await client(ts, admin).post('/user_groups/create', { name: 'newcomers', description: '', members: [other.id] })).group_id;
  assertSuccess(
    await client(ts, owner).patch(`/user_groups/${group}`, { can_add_members_group: { new: { direct_members: [inviter.id], direct_subgroups: [] } } }),
  );
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, SERVER_HOOK_TIMEOUT);

async function channel(name: string, principals: number[], inviteOnly = false): Promise<number> {
  assertSuccess(await client(ts, owner).post('/users/me/subscriptions', { subscriptions: [{ name }], principals, invite_only: inviteOnly }));
  return assertSuccess(await client(ts, owner).get('/get_stream_id', { stream: name })).stream_id;
}

let counter = 0;
const fresh = () => `invitee${++counter}@example.org`;
const keyFor = (email: string) => {
  const mails = listOutbox(ts.server.deps.config).filter((m) => m.to === email);
  return /\/join\/([a-z0-9]{24})\//.exec(mails[mails.length - 1].text)![1];
};
const kinds = (events: Record<string, any>[]) => events.map((e) => (e.op ? `${e.type}/${e.op}` : e.type));
const inviteId = async (email: string) => assertSuccess(await client(ts, owner).get('/invites')).invites.find((i: any) => i.email === email).id as number;

/** Watchers: owner, administrator, inviter, another member, a guest. */
const watch = (action: () => Promise<unknown>) => verifyActionFor(ts, [owner, admin, inviter, other, guest], action as never);

describe('invites_changed', () => {
  test('a member inviting: administrators and the inviter hear; nobody else', async () => {
    const [o, a, i, m, g] = await watch(() => client(ts, inviter).post('/invites', { invitee_emails: `${fresh()}, ${fresh()}`, stream_ids: [publicChannel] }));
    for (const events of [o, a, i]) expect(withoutIds(events)).toEqual([{ type: 'invites_changed' }]);
    expect(m).toEqual([]);
    expect(g).toEqual([]);
  });

  test('an administrator inviting hears once', async () => {
    const [o, a, i, m, g] = await watch(() => client(ts, admin).post('/invites', { invitee_emails: fresh(), stream_ids: [], invite_as: 600 }));
    for (const events of [o, a]) expect(withoutIds(events)).toEqual([{ type: 'invites_changed' }]);
    expect([i, m, g]).toEqual([[], [], []]);
  });

  test('resending and revoking a member’s invitation', async () => {
    const email = fresh();
    assertSuccess(await client(ts, inviter).post('/invites', { invitee_emails: email, stream_ids: [] }));
    const id = await inviteId(email);
    // Resending mails the invitation again; the invitation as GET /invites lists it is unchanged.
    const before = assertSuccess(await client(ts, admin).get('/invites')).invites;
    expect(await watch(() => client(ts, inviter).post(`/invites/${id}/resend`))).toEqual([[], [], [], [], []]);
    expect(assertSuccess(await client(ts, admin).get('/invites')).invites).toEqual(before);
    const revoked = await watch(() => client(ts, admin).delete(`/invites/${id}`));
    for (const events of revoked.slice(0, 3)) expect(withoutIds(events)).toEqual([{ type: 'invites_changed' }]);
    expect(revoked.slice(3)).toEqual([[], []]);
  });

  test('creating and revoking a reusable link', async () => {
    const made = await watch(() => client(ts, admin).post('/invites/multiuse', { invite_as: 400, stream_ids: [publicChannel] }));
    for (const events of made.slice(0, 2)) expect(withoutIds(events)).toEqual([{ type: 'invites_changed' }]);
    expect(made.slice(2)).toEqual([[], [], []]);
    const link = assertSuccess(await client(ts, admin).get('/invites')).invites.find((i: any) => i.is_multiuse);
    const revoked = await watch(() => client(ts, admin).delete(`/invites/multiuse/${link.id}`));
    for (const events of revoked.slice(0, 2)) expect(withoutIds(events)).toEqual([{ type: 'invites_changed' }]);
    expect(revoked.slice(2)).toEqual([[], [], []]);
  });
});

describe('accepting an invitation', () => {
  test('a member with channels and a group: everyone meets the new user; channel peers and group watchers hear', async () => {
    const email = fresh();
    assertSuccess(
      await client(ts, inviter).post('/invites', {
        invitee_emails: email,
        stream_ids: [publicChannel, privateChannel],
        group_ids: [group],
        include_realm_default_subscriptions: false,
      }),
    );
    const [o, a, i, m, g] = await watch(() => client(ts, null).post(`/join/${keyFor(email)}`, { full_name: 'Joining Member', password: 'a-good-password' }));
    for (const events of [o, a, i, m, g]) expect(kinds(events)).toContain('realm_user/add');
    expect(kinds(o)).toContain('invites_changed');
    expect(kinds(i)).toContain('invites_changed');
    expect(kinds(m)).not.toContain('invites_changed');
    // The private channel's subscribers (and administrators) see the new subscriber; the guest only the public one's.
    expect(kinds(i)).toContain('subscription/peer_add');
    expect(g.filter((e) => e.type === 'subscription').flatMap((e) => e.stream_ids)).toEqual([publicChannel]);
    for (const events of [o, a, i, m, g]) expect(events.filter((e) => e.type === 'user_group' && e.group_id === group)).toHaveLength(1);
  });

  test.each([true, 'partial'])('subscriber lists follow the new subscriber (include_subscribers %s)', async (includeSubscribers) => {
    const email = fresh();
    assertSuccess(
      await client(ts, inviter).post('/invites', {
        invitee_emails: email,
        stream_ids: [publicChannel, privateChannel],
        include_realm_default_subscriptions: false,
      }),
    );
    await verifyActionFor(
      ts,
      [owner, admin, inviter, other, guest],
      () => client(ts, null).post(`/join/${keyFor(email)}`, { full_name: 'Counted Member', password: 'a-good-password' }),
      {
        extra: { include_subscribers: includeSubscribers },
      },
    );
  });

  test('a guest through a reusable link', async () => {
    const link = assertSuccess(await client(ts, admin).post('/invites/multiuse', { invite_as: 600, stream_ids: [publicChannel] })).invite_link as string;
    const key = /\/join\/([a-z0-9]{24})\//.exec(link)![1];
    const all = await watch(() => client(ts, null).post(`/join/${key}`, { email: fresh(), full_name: 'Link Guest', password: 'a-good-password' }));
    for (const events of all) expect(kinds(events)).toContain('realm_user/add');
  });

  test('an administrator invited as such, with the organization’s default channels', async () => {
    const email = fresh();
    assertSuccess(
      await client(ts, owner).post('/invites', { invitee_emails: email, stream_ids: [], invite_as: 200, include_realm_default_subscriptions: true }),
    );
    const all = await watch(() => client(ts, null).post(`/join/${keyFor(email)}`, { full_name: 'New Administrator', password: 'a-good-password' }));
    for (const events of all)
      expect(withoutIds(events).find((e) => e.type === 'realm_user')).toMatchObject({ op: 'add', person: { role: 200, is_admin: true } });
  });
});

describe('invitations of a deactivated user', () => {
  test('are withdrawn: administrators are told to refetch', async () => {
    const leaving = await makeUser(ts, 400);
    assertSuccess(await client(ts, leaving).post('/invites', { invitee_emails: fresh(), stream_ids: [] }));
    const [o, a, i, m, g] = await watch(() => client(ts, admin).delete(`/users/${leaving.id}`));
    for (const events of [o, a]) expect(kinds(events)).toContain('invites_changed');
    for (const events of [i, m, g]) expect(kinds(events)).not.toContain('invites_changed');
    expect(assertSuccess(await client(ts, owner).get('/invites')).invites.some((x: any) => x.invited_by_user_id === leaving.id)).toBe(false);
  });
});
