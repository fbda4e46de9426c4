import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { listOutbox } from '../../src/core/email/outbox';
import { assertError, assertSuccess, client } from '../helpers/api';
import { captureEvents } from '../helpers/events';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';

let ts: TestServer;
let dataDir: string;
let admin: TestUser;
let member: TestUser;
let bystander: TestUser;
let open: number;
let shared: number;
let hidden: number;
let archived: number;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-invite-channels-'));
  ts = await startTestServer({ DATA_DIR: dataDir });
  admin = await makeUser(ts, 200);
  member = await makeUser(ts, 400);
  bystander = await makeUser(ts, 400);
  open = await createChannel(admin, 'lobby');
  shared = await createChannel(member, 'member-private', { invite_only: true });
  hidden = await createChannel(admin, 'admin-private', { invite_only: true });
  archived = await createChannel(admin, 'attic');
  assertSuccess(await client(ts, admin).delete(`/streams/${archived}`));
}, 120_000);
afterAll(async () => {
  await ts.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function createChannel(who: TestUser, name: string, extra: Record<string, unknown> = {}): Promise<number> {
  assertSuccess(await client(ts, who).post('/users/me/subscriptions', { subscriptions: [{ name }], ...extra }));
  return assertSuccess(await client(ts, who).get('/get_stream_id', { stream: name })).stream_id;
}

let counter = 0;
const fresh = () => `channel-invitee${++counter}-${Date.now()}@example.org`;
const keyFor = (email: string) => {
  const mails = listOutbox(ts.server.deps.config).filter((m) => m.to === email);
  return /\/join\/([a-z0-9]{24})\//.exec(mails[mails.length - 1].text)![1];
};
const invite = (who: TestUser, params: Record<string, unknown>) => client(ts, who).post('/invites', params);
const subscriptionIds = async (who: { email: string; apiKey: string }) =>
  (assertSuccess(await client(ts, who).get('/users/me/subscriptions')).subscriptions as { stream_id: number }[]).map((s) => s.stream_id).sort((a, b) => a - b);

describe('channels named in an invitation', () => {
  test('must be channels the inviter can access, or nothing is sent', async () => {
    for (const id of [hidden, archived, 999999, 2 ** 40]) {
      const email = fresh();
      assertError(await invite(member, { invitee_emails: email, stream_ids: [open, id] }), 'BAD_REQUEST', `Invalid channel ID ${id}. No invites were sent.`);
      expect(listOutbox(ts.server.deps.config).filter((m) => m.to === email)).toEqual([]);
    }
    // Administrators know private channels exist, but inviting to one takes access to its content.
    assertError(
      await client(ts, admin).post('/invites/multiuse', { stream_ids: [shared] }),
      'BAD_REQUEST',
      `Invalid channel ID ${shared}. No invites were sent.`,
    );
    assertSuccess(await invite(member, { invitee_emails: fresh(), stream_ids: [open, shared] }));
    assertSuccess(await client(ts, admin).post('/invites/multiuse', { stream_ids: [open, hidden] }));
  });

  test('the new account is subscribed on acceptance, with the usual events', async () => {
    const email = fresh();
    const later = await createChannel(member, 'archived-before-acceptance');
    assertSuccess(await invite(member, { invitee_emails: email, stream_ids: [shared, open, later], include_realm_default_subscriptions: true }));
    assertSuccess(await client(ts, member).delete(`/streams/${later}`));

    const events = captureEvents(ts);
    let joined: Record<string, any>;
    try {
      joined = assertSuccess(await client(ts, null).post(`/join/${keyFor(email)}`, { full_name: 'Channel Joiner', password: 'joiner-password' }));
    } finally {
      events.stop();
    }
    const newcomer = { email, apiKey: joined.api_key };
    // Channels archived since the invitation are skipped; there are no default channels to add.
    expect(await subscriptionIds(newcomer)).toEqual([open, shared].sort((a, b) => a - b));

    const adds = events.ofType('subscription').filter((d) => d.event.op === 'add');
    expect(adds.map((d) => d.userIds)).toEqual([[joined.user_id]]);
    expect((adds[0].event.subscriptions as { stream_id: number }[]).map((s) => s.stream_id).sort((a, b) => a - b)).toEqual(
      [open, shared].sort((a, b) => a - b),
    );
    // The private channel is new to the account; the public one it already knew of.
    const created = events.ofType('stream').filter((d) => d.event.op === 'create');
    expect(created).toEqual([{ event: expect.objectContaining({ streams: [expect.objectContaining({ stream_id: shared })] }), userIds: [joined.user_id] }]);
    const peers = events.ofType('subscription').filter((d) => d.event.op === 'peer_add');
    const peerOf = (id: number) => peers.find((d) => (d.event.stream_ids as number[]).includes(id))!;
    expect(peerOf(shared).event).toEqual({ type: 'subscription', op: 'peer_add', stream_ids: [shared], user_ids: [joined.user_id] });
    expect(peerOf(shared).userIds).toEqual(expect.arrayContaining([member.id, admin.id]));
    expect(peerOf(shared).userIds).not.toContain(bystander.id);
    expect(peerOf(open).userIds).toEqual(expect.arrayContaining([member.id, admin.id, bystander.id]));
    expect(assertSuccess(await client(ts, member).get(`/streams/${shared}/members`)).subscribers).toContain(joined.user_id);
  });
});

describe('deactivating an inviter', () => {
  test('revokes their pending invitations and reusable links, and tells administrators', async () => {
    const inviter = await makeUser(ts, 200);
    const email = fresh();
    assertSuccess(await invite(inviter, { invitee_emails: email, stream_ids: [] }));
    const link: string = assertSuccess(await client(ts, inviter).post('/invites/multiuse', {})).invite_link;
    const othersEmail = fresh();
    assertSuccess(await invite(member, { invitee_emails: othersEmail, stream_ids: [] }));
    const pending = async () => (assertSuccess(await client(ts, admin).get('/invites')).invites as any[]).filter((i) => i.invited_by_user_id === inviter.id);
    expect(await pending()).toHaveLength(2);

    const events = captureEvents(ts);
    try {
      assertSuccess(await client(ts, ts.owner).delete(`/users/${inviter.id}`));
      const changed = events.ofType('invites_changed');
      expect(changed).toHaveLength(1);
      expect([...changed[0].userIds].sort((a, b) => a - b)).toEqual([ts.owner.id, admin.id].sort((a, b) => a - b));
    } finally {
      events.stop();
    }
    expect(await pending()).toEqual([]);
    const unusable = 'The confirmation link has expired or been deactivated.';
    assertError(await client(ts, null).post(`/join/${keyFor(email)}`, { full_name: 'Too Late', password: 'late-password' }), 'BAD_REQUEST', unusable);
    const linkKey = /\/join\/([a-z0-9]{24})\//.exec(link)![1];
    assertError(await client(ts, null).post(`/join/${linkKey}`, { email: fresh(), full_name: 'Too Late', password: 'late-password' }), 'BAD_REQUEST', unusable);
    // Other people's invitations stay.
    assertSuccess(await client(ts, null).post(`/join/${keyFor(othersEmail)}`, { full_name: 'Still Welcome', password: 'welcome-password' }));

    // Deactivating someone without pending invitations tells nobody about invitations.
    const quiet = await makeUser(ts, 400);
    const again = captureEvents(ts);
    try {
      assertSuccess(await client(ts, ts.owner).delete(`/users/${quiet.id}`));
      expect(again.ofType('invites_changed')).toEqual([]);
    } finally {
      again.stop();
    }
  });
});
