import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { listOutbox } from '../../src/core/email/outbox';
import { assertError, assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { captureEvents } from '../helpers/events';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';

let ts: TestServer;
let dataDir: string;
let admin: TestUser;
let moderator: TestUser;
let member: TestUser;
let guest: TestUser;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-invites-'));
  ts = await startTestServer({ DATA_DIR: dataDir });
  admin = await makeUser(ts, 200);
  moderator = await makeUser(ts, 300);
  member = await makeUser(ts, 400);
  guest = await makeUser(ts, 600);
}, 120_000);
afterAll(async () => {
  await ts.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

let counter = 0;
const fresh = () => `invitee${++counter}-${Date.now()}@example.org`;
const invite = (who: TestUser, params: Record<string, unknown>) => client(ts, who).post('/invites', { stream_ids: [], ...params });
const invites = async (who: TestUser) => assertSuccess(await client(ts, who).get('/invites')).invites as any[];
const mailTo = (email: string) => listOutbox(ts.server.deps.config).filter((m) => m.to === email);
const keyOf = (link: string) => /\/join\/([a-z0-9]{24})\/$/.exec(link)![1];

async function makeGroup(name: string, settings: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): Promise<number> {
  const [row] = await ts.server.deps
    .knex('user_groups')
    .insert({ realm_id: ts.server.deps.realmId, name, settings: JSON.stringify(settings), ...extra })
    .returning('id');
  return typeof row === 'object' ? row.id : row;
}

describe('POST /invites', () => {
  test('invites each address, emails it a link, and tells admins and the inviter', async () => {
    const a = fresh();
    const b = fresh();
    const c = fresh();
    const events = captureEvents(ts);
    const before = Math.floor(Date.now() / 1000);
    try {
      assertSuccess(await invite(member, { invitee_emails: `${a}, ${b}\nSome One <${c}>,${a}` }));
      const changed = events.ofType('invites_changed');
      expect(changed).toHaveLength(1);
      expect(changed[0].event).toEqual({ type: 'invites_changed' });
      expect([...changed[0].userIds].sort((x, y) => x - y)).toEqual([ts.owner.id, admin.id, member.id].sort((x, y) => x - y));
    } finally {
      events.stop();
    }
    const mine = (await invites(member)).filter((i) => [a, b, c].includes(i.email));
    expect(mine).toHaveLength(3);
    for (const i of mine) {
      expect(i).toEqual({
        id: expect.any(Number),
        email: i.email,
        invited_by_user_id: member.id,
        invited: expect.any(Number),
        expiry_date: i.invited + 14400 * 60,
        invited_as: 400,
        is_multiuse: false,
        notify_referrer_on_join: true,
      });
      expect(i.invited).toBeGreaterThanOrEqual(before - 1);
      const [mail] = mailTo(i.email);
      expect(mail.subject).toBe(`${member.fullName} invited you to join Test Org`);
      expect(mail.text).toMatch(new RegExp(`${ts.server.deps.config.externalUrl}/join/[a-z0-9]{24}/`));
    }
  });

  test('empty entries between separators are skipped', async () => {
    const a = fresh();
    const b = fresh();
    assertSuccess(await invite(member, { invitee_emails: `${a},\n${b}\n` }));
    const emails = (await invites(member)).map((i) => i.email);
    expect(emails).toEqual(expect.arrayContaining([a, b]));
    expect(emails).not.toContain('');
  });

  test('expiry: minutes from now, or never', async () => {
    const a = fresh();
    const b = fresh();
    assertSuccess(await invite(admin, { invitee_emails: a, invite_expires_in_minutes: 60, notify_referrer_on_join: false }));
    assertSuccess(await invite(admin, { invitee_emails: b, invite_expires_in_minutes: null }));
    const all = await invites(admin);
    const first = all.find((i) => i.email === a);
    expect(first.expiry_date).toBe(first.invited + 3600);
    expect(first.notify_referrer_on_join).toBe(false);
    expect(all.find((i) => i.email === b).expiry_date).toBeNull();
  });

  test('the role offered may not be stronger than the inviter own', async () => {
    assertError(await invite(member, { invitee_emails: fresh(), invite_as: 300 }), 'BAD_REQUEST', 'Insufficient permission');
    assertError(await invite(member, { invitee_emails: fresh(), invite_as: 200 }), 'BAD_REQUEST', 'Insufficient permission');
    assertError(await invite(moderator, { invitee_emails: fresh(), invite_as: 200 }), 'BAD_REQUEST', 'Insufficient permission');
    assertError(await invite(admin, { invitee_emails: fresh(), invite_as: 100 }), 'BAD_REQUEST', 'Insufficient permission');
    assertSuccess(await invite(member, { invitee_emails: fresh(), invite_as: 600 }));
    assertSuccess(await invite(moderator, { invitee_emails: fresh(), invite_as: 300 }));
    assertSuccess(await invite(admin, { invitee_emails: fresh(), invite_as: 200 }));
    const owner = fresh();
    assertSuccess(await invite(ts.owner, { invitee_emails: owner, invite_as: 100 }));
    expect((await invites(ts.owner)).find((i) => i.email === owner).invited_as).toBe(100);
    assertError(await invite(admin, { invitee_emails: fresh(), invite_as: 500 }), 'BAD_REQUEST', 'Invalid invite_as');
  });

  test('guests cannot invite', async () => {
    assertError(await invite(guest, { invitee_emails: fresh(), invite_as: 600 }), 'BAD_REQUEST', 'Not allowed for guest users');
    assertError(await client(ts, guest).get('/invites'), 'BAD_REQUEST', 'Not allowed for guest users');
  });

  test('at least one address is needed, and stream_ids is required', async () => {
    assertError(await invite(member, { invitee_emails: '' }), 'BAD_REQUEST', 'You must specify at least one email address.');
    assertError(await invite(member, { invitee_emails: ' ,\n' }), 'BAD_REQUEST', 'You must specify at least one email address.');
    assertError(await client(ts, member).post('/invites', { invitee_emails: fresh() }), 'REQUEST_VARIABLE_MISSING', "Missing 'stream_ids' argument");
    assertError(await client(ts, member).post('/invites', { stream_ids: [] }), 'REQUEST_VARIABLE_MISSING', "Missing 'invitee_emails' argument");
  });

  test('unknown channels stop the whole request', async () => {
    const a = fresh();
    assertError(await invite(admin, { invitee_emails: a, stream_ids: [5, 6] }), 'BAD_REQUEST', 'Invalid channel ID 5. No invites were sent.');
    expect((await invites(admin)).some((i) => i.email === a)).toBe(false);
    expect(mailTo(a)).toEqual([]);
  });

  test('groups must exist, be active, not be system groups, and be ones the inviter may add to', async () => {
    const managed = await makeGroup(`managed-${counter}`, { can_manage_group: { direct_members: [member.id], direct_subgroups: [] } });
    const addable = await makeGroup(`addable-${counter}`, {
      can_add_members_group: { direct_members: [], direct_subgroups: [await systemGroup('role:members')] },
    });
    const closed = await makeGroup(`closed-${counter}`, { can_manage_group: await systemGroup('role:nobody') });
    const inactive = await makeGroup(`inactive-${counter}`, {}, { deactivated: true });
    assertSuccess(await invite(member, { invitee_emails: fresh(), group_ids: [managed, addable] }));
    assertError(await invite(member, { invitee_emails: fresh(), group_ids: [closed] }), 'BAD_REQUEST', 'Insufficient permission');
    assertError(await invite(admin, { invitee_emails: fresh(), group_ids: [closed] }), 'BAD_REQUEST', 'Insufficient permission');
    assertSuccess(await invite(ts.owner, { invitee_emails: fresh(), group_ids: [closed] }));
    assertError(await invite(ts.owner, { invitee_emails: fresh(), group_ids: [99999] }), 'BAD_REQUEST', 'Invalid user group');
    assertError(await invite(ts.owner, { invitee_emails: fresh(), group_ids: [inactive] }), 'BAD_REQUEST', 'User group is deactivated.');
    assertError(await invite(ts.owner, { invitee_emails: fresh(), group_ids: [await systemGroup('role:members')] }), 'BAD_REQUEST', 'Insufficient permission');
  });

  test('custom welcome text is for administrators and bounded', async () => {
    assertError(await invite(member, { invitee_emails: fresh(), welcome_message_custom_text: 'Hi!' }), 'BAD_REQUEST', 'Must be an organization administrator');
    assertError(await invite(moderator, { invitee_emails: fresh(), welcome_message_custom_text: '' }), 'BAD_REQUEST', 'Must be an organization administrator');
    assertSuccess(await invite(admin, { invitee_emails: fresh(), welcome_message_custom_text: 'W'.repeat(8000) }));
    assertError(
      await invite(admin, { invitee_emails: fresh(), welcome_message_custom_text: 'W'.repeat(8001) }),
      'BAD_REQUEST',
      'welcome_message_custom_text is too long (limit: 8000 characters)',
    );
  });

  test('existing accounts are skipped and reported; the others are invited', async () => {
    const gone = await makeUser(ts, 400);
    assertSuccess(await client(ts, ts.owner).delete(`/users/${gone.id}`));
    const newcomer = fresh();
    const res = await invite(admin, { invitee_emails: `${member.email.toUpperCase()}, ${gone.email}, ${newcomer}` });
    const body = assertError(
      res,
      'INVITATION_FAILED',
      "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!",
    );
    expect(body.errors).toEqual([
      [member.email.toUpperCase(), 'Already has an account.', false],
      [gone.email, 'Account has been deactivated.', true],
    ]);
    expect(body).toMatchObject({ sent_invitations: true, license_limit_reached: false, daily_limit_reached: false });
    expect((await invites(admin)).some((i) => i.email === newcomer)).toBe(true);
    expect(mailTo(newcomer)).toHaveLength(1);
  });

  test('when nobody can be invited, nothing is sent', async () => {
    const body = assertError(await invite(admin, { invitee_emails: member.email }), 'INVITATION_FAILED', "We weren't able to invite anyone.");
    expect(body).toMatchObject({ errors: [[member.email, 'Already has an account.', false]], sent_invitations: false });
  });

  test('a malformed address stops everything', async () => {
    const ok = fresh();
    const body = assertError(
      await invite(admin, { invitee_emails: `${ok}, not-an-email, ${member.email}` }),
      'INVITATION_FAILED',
      "Some emails did not validate, so we didn't send any invitations.",
    );
    expect(body.errors).toEqual([
      ['not-an-email', 'Invalid address.', false],
      [member.email, 'Already has an account.', false],
    ]);
    expect(body.sent_invitations).toBe(false);
    expect((await invites(admin)).some((i) => i.email === ok)).toBe(false);
    expect(mailTo(ok)).toEqual([]);
  });
});

async function systemGroup(name: string): Promise<number> {
  return (await ts.server.deps.knex('user_groups').where({ realm_id: ts.server.deps.realmId, name }).first('id')).id;
}

describe('GET /invites', () => {
  test('administrators see every invitation, others their own; expired ones are left out', async () => {
    const byMember = fresh();
    const byModerator = fresh();
    const expiring = fresh();
    assertSuccess(await invite(member, { invitee_emails: byMember }));
    assertSuccess(await invite(moderator, { invitee_emails: byModerator }));
    assertSuccess(await invite(member, { invitee_emails: expiring, invite_expires_in_minutes: 5 }));
    await ts.server.deps
      .knex('invitations')
      .where({ email: expiring })
      .update({ expiry_date: new Date(Date.now() - 1000) });
    const memberView = (await invites(member)).map((i) => i.email);
    expect(memberView).toContain(byMember);
    expect(memberView).not.toContain(byModerator);
    expect(memberView).not.toContain(expiring);
    expect((await invites(member)).every((i) => i.invited_by_user_id === member.id)).toBe(true);
    const adminView = (await invites(admin)).map((i) => i.email);
    expect(adminView).toEqual(expect.arrayContaining([byMember, byModerator]));
    expect(adminView).not.toContain(expiring);
  });
});

describe('DELETE /invites/{id}', () => {
  const idOf = async (email: string) => (await invites(ts.owner)).find((i) => i.email === email).id as number;

  test('the inviter may revoke their own invitation; it then disappears', async () => {
    const a = fresh();
    assertSuccess(await invite(member, { invitee_emails: a }));
    const id = await idOf(a);
    const events = captureEvents(ts);
    try {
      assertSuccess(await client(ts, member).delete(`/invites/${id}`));
      expect(events.ofType('invites_changed')[0].userIds).toContain(member.id);
    } finally {
      events.stop();
    }
    expect((await invites(member)).some((i) => i.id === id)).toBe(false);
  });

  test('someone else invitation takes an administrator, and an owner for owner invitations', async () => {
    const a = fresh();
    const o = fresh();
    assertSuccess(await invite(moderator, { invitee_emails: a }));
    assertSuccess(await invite(ts.owner, { invitee_emails: o, invite_as: 100 }));
    const id = await idOf(a);
    const ownerInvite = await idOf(o);
    assertError(await client(ts, member).delete(`/invites/${id}`), 'BAD_REQUEST', 'Must be an organization administrator');
    assertError(await client(ts, admin).delete(`/invites/${ownerInvite}`), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
    assertSuccess(await client(ts, admin).delete(`/invites/${id}`));
    assertSuccess(await client(ts, ts.owner).delete(`/invites/${ownerInvite}`));
  });

  test('unknown ids and reusable links are not email invitations', async () => {
    assertError(await client(ts, admin).delete('/invites/987654'), 'BAD_REQUEST', 'No such invitation');
    const link = assertSuccess(await client(ts, admin).post('/invites/multiuse', {})).invite_link;
    const id = (await invites(admin)).find((i) => i.link_url === link).id;
    assertError(await client(ts, admin).delete(`/invites/${id}`), 'BAD_REQUEST', 'No such invitation');
  });
});

describe('POST /invites/{id}/resend', () => {
  test('sends the same link again', async () => {
    const a = fresh();
    assertSuccess(await invite(member, { invitee_emails: a }));
    const id = (await invites(member)).find((i) => i.email === a).id;
    assertSuccess(await client(ts, member).post(`/invites/${id}/resend`));
    const mails = mailTo(a);
    expect(mails).toHaveLength(2);
    expect(mails[1].text).toBe(mails[0].text);
  });

  test('resending follows the revoke permissions and needs a live invitation', async () => {
    const a = fresh();
    assertSuccess(await invite(moderator, { invitee_emails: a }));
    const id = (await invites(moderator)).find((i) => i.email === a).id;
    assertError(await client(ts, member).post(`/invites/${id}/resend`), 'BAD_REQUEST', 'Must be an organization administrator');
    assertSuccess(await client(ts, admin).post(`/invites/${id}/resend`));
    assertSuccess(await client(ts, moderator).delete(`/invites/${id}`));
    assertError(await client(ts, moderator).post(`/invites/${id}/resend`), 'BAD_REQUEST', 'No such invitation');
    assertError(await client(ts, moderator).post('/invites/987654/resend'), 'BAD_REQUEST', 'No such invitation');
  });
});

describe('reusable links', () => {
  test('administrators create them; others may not', async () => {
    assertError(await client(ts, member).post('/invites/multiuse', {}), 'BAD_REQUEST', 'Insufficient permission');
    assertError(await client(ts, moderator).post('/invites/multiuse', {}), 'BAD_REQUEST', 'Insufficient permission');
    assertError(await client(ts, guest).post('/invites/multiuse', {}), 'BAD_REQUEST', 'Not allowed for guest users');
    assertError(await client(ts, admin).post('/invites/multiuse', { invite_as: 100 }), 'BAD_REQUEST', 'Insufficient permission');
    assertError(await client(ts, admin).post('/invites/multiuse', { stream_ids: [3] }), 'BAD_REQUEST', 'Invalid channel ID 3. No invites were sent.');
    const events = captureEvents(ts);
    let link: string;
    try {
      link = assertSuccess(await client(ts, admin).post('/invites/multiuse', { invite_as: 600, invite_expires_in_minutes: null })).invite_link;
      expect(events.ofType('invites_changed')).toHaveLength(1);
    } finally {
      events.stop();
    }
    expect(link).toMatch(new RegExp(`^${ts.server.deps.config.externalUrl}/join/[a-z0-9]{24}/$`));
    const listed = (await invites(admin)).find((i) => i.link_url === link);
    expect(listed).toEqual({
      id: expect.any(Number),
      invited_by_user_id: admin.id,
      invited: expect.any(Number),
      expiry_date: null,
      invited_as: 600,
      is_multiuse: true,
      notify_referrer_on_join: true,
      link_url: link,
    });
  });

  test('revoking a link, twice', async () => {
    const link = assertSuccess(await client(ts, admin).post('/invites/multiuse', {})).invite_link;
    const id = (await invites(admin)).find((i) => i.link_url === link).id;
    const other = await makeUser(ts, 200);
    assertSuccess(await client(ts, other).delete(`/invites/multiuse/${id}`));
    expect((await invites(admin)).some((i) => i.id === id && i.is_multiuse)).toBe(false);
    assertError(await client(ts, admin).delete(`/invites/multiuse/${id}`), 'BAD_REQUEST', 'Invitation has already been revoked');
    assertError(await client(ts, admin).delete('/invites/multiuse/987654'), 'BAD_REQUEST', 'No such invitation');
    const email = fresh();
    assertSuccess(await invite(admin, { invitee_emails: email }));
    const emailInvite = (await invites(admin)).find((i) => i.email === email).id;
    assertError(await client(ts, admin).delete(`/invites/multiuse/${emailInvite}`), 'BAD_REQUEST', 'No such invitation');
    expect(keyOf(link)).toHaveLength(24);
  });
});

describe('daily limit', () => {
  test('caps invitation emails per organization, resends included', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-limit-'));
    const limited = await startTestServer({ DATA_DIR: dir, PARLEY_INVITES_DAILY_MAX: '3' });
    try {
      const inviter = await makeUser(limited, 200);
      const post = (emails: string) => client(limited, inviter).post('/invites', { invitee_emails: emails, stream_ids: [] });
      assertSuccess(await post(`${fresh()}, ${fresh()}`));
      const over = assertError(
        await post(`${fresh()}, ${fresh()}`),
        'INVITATION_FAILED',
        'To protect users, Zulip limits the number of invitations you can send in one day. Because you have reached the limit, no invitations were sent.',
      );
      expect(over).toMatchObject({ errors: [], sent_invitations: false, license_limit_reached: false, daily_limit_reached: true });
      const [first] = assertSuccess(await client(limited, inviter).get('/invites')).invites;
      assertSuccess(await client(limited, inviter).post(`/invites/${first.id}/resend`));
      const again = assertError(
        await client(limited, inviter).post(`/invites/${first.id}/resend`),
        'INVITATION_FAILED',
        'To protect users, Zulip limits the number of invitations you can send in one day. Because you have reached the limit, no invitations were sent.',
      );
      expect(again.daily_limit_reached).toBe(true);
      expect(listOutbox(limited.server.deps.config)).toHaveLength(3);
    } finally {
      await limited.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('GraphQL', () => {
  test('sends, lists, resends and revokes invitations through the same rules', async () => {
    const a = fresh();
    const sent = await graphql(
      ts,
      member,
      'mutation($i: SendInvitationsInput!) { sendInvitations(input: $i) { invitations { id email invitedAs expiryDate } } }',
      {
        i: { inviteeEmails: a, streamIds: [], neverExpires: true, inviteAs: 600 },
      },
    );
    expect(sent.data).toEqual({ sendInvitations: { invitations: [{ id: expect.any(String), email: a, invitedAs: 600, expiryDate: null }] } });
    const listed = (await graphql(ts, member, '{ invitations { id email isMultiuse expiryDate invitedAs invitedByUserId linkUrl } }')).data!.invitations;
    const mine = listed.find((i: any) => i.email === a);
    expect(mine).toEqual({
      id: sent.data!.sendInvitations.invitations[0].id,
      email: a,
      isMultiuse: false,
      expiryDate: null,
      invitedAs: 600,
      invitedByUserId: member.id,
      linkUrl: null,
    });
    expect((await graphql(ts, member, `mutation { resendInvitation(id: ${mine.id}) { invitation { id email isMultiuse invitedByUserId } } }`)).data).toEqual({
      resendInvitation: { invitation: { id: mine.id, email: a, isMultiuse: false, invitedByUserId: member.id } },
    });
    expect(mailTo(a)).toHaveLength(2);
    expect((await graphql(ts, member, `mutation { revokeInvitation(id: ${mine.id}) { id } }`)).data).toEqual({ revokeInvitation: { id: mine.id } });

    const partial = await graphql(ts, admin, 'mutation($i: SendInvitationsInput!) { sendInvitations(input: $i) { invitations { id } } }', {
      i: { inviteeEmails: `${member.email},${fresh()}`, streamIds: [] },
    });
    expect(partial.errors![0].extensions).toMatchObject({
      code: 'INVITATION_FAILED',
      errors: [[member.email, 'Already has an account.', false]],
      sent_invitations: true,
    });
    expect(graphqlError(await graphql(ts, member, 'mutation { sendInvitations(input: { inviteeEmails: "x@example.org" }) { invitations { id } } }'))).toEqual({
      code: 'REQUEST_VARIABLE_MISSING',
      message: "Missing 'stream_ids' argument",
    });
    expect(graphqlError(await graphql(ts, member, 'mutation { createInviteLink }'))).toEqual({ code: 'BAD_REQUEST', message: 'Insufficient permission' });

    const link = (await graphql(ts, admin, 'mutation { createInviteLink(input: { inviteAs: 400 }) }')).data!.createInviteLink;
    const key = keyOf(link);
    const joined = await graphql(
      ts,
      null,
      'mutation($k: String!, $e: String) { acceptInvitation(key: $k, fullName: "Graph Joiner", password: "graph-password", email: $e) { userId email apiKey } }',
      { k: key, e: `graph-${Date.now()}@example.org` },
    );
    expect(joined.data!.acceptInvitation).toMatchObject({ userId: expect.any(Number), apiKey: expect.stringMatching(/^[A-Za-z0-9]{32}$/) });
    const linkId = (await invites(admin)).find((i) => i.link_url === link).id;
    expect((await graphql(ts, admin, `mutation { revokeInviteLink(id: ${linkId}) { id } }`)).data).toEqual({ revokeInviteLink: { id: String(linkId) } });
  });
});
