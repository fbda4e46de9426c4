import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { assertError, assertSuccess, client } from '../helpers/api';
import { registerQueue, verifySharedAction } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';

let ts: TestServer;
let dataDir: string;
let admin: TestUser;
let alice: TestUser;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-realm-domains-'));
  ts = await startTestServer({ DATA_DIR: dataDir });
  admin = await makeUser(ts, 200);
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, SERVER_HOOK_TIMEOUT);

const owner = () => client(ts, ts.owner);
const domains = async (who: TestUser) => assertSuccess(await client(ts, who).get('/realm/domains')).domains;

test('owners add, change and remove domains; everyone hears it and register follows', async () => {
  let events = await verifySharedAction(ts, [alice, admin], async () => {
    const res = await owner().post('/realm/domains', { domain: ' Example.ORG ', allow_subdomains: false });
    expect(assertSuccess(res).new_domain).toEqual([expect.any(Number), 'example.org']);
    return res;
  });
  expect(events).toEqual([{ type: 'realm_domains', op: 'add', realm_domain: { domain: 'example.org', allow_subdomains: false } }]);
  assertSuccess(await owner().post('/realm/domains', { domain: 'acme.com', allow_subdomains: true }));
  expect(await domains(alice)).toEqual([
    { domain: 'acme.com', allow_subdomains: true },
    { domain: 'example.org', allow_subdomains: false },
  ]);
  events = await verifySharedAction(ts, [alice], () => owner().patch('/realm/domains/example.org', { allow_subdomains: true }));
  expect(events).toEqual([{ type: 'realm_domains', op: 'change', realm_domain: { domain: 'example.org', allow_subdomains: true } }]);
  events = await verifySharedAction(ts, [alice], () => owner().delete('/realm/domains/acme.com'));
  expect(events).toEqual([{ type: 'realm_domains', op: 'remove', domain: 'acme.com' }]);
  expect((await registerQueue(ts, alice, { fetchEventTypes: ['realm_domains'] })).state.realm_domains).toEqual([
    { domain: 'example.org', allow_subdomains: true },
  ]);
});

test('refusals: non-owners, bad domains, duplicates, unknown domains', async () => {
  for (const who of [admin, alice]) {
    assertError(
      await client(ts, who).post('/realm/domains', { domain: 'x.org', allow_subdomains: false }),
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization owner',
    );
    assertError(await client(ts, who).delete('/realm/domains/example.org'), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
  }
  const cases: [string, string][] = [
    ['', "Invalid domain: Domain can't be empty."],
    ['localhost', 'Invalid domain: Domain must have at least one dot (.)'],
    ['.example.com', 'Invalid domain: Domain cannot start or end with a dot (.)'],
    ['a..b', "Invalid domain: Consecutive '.' are not allowed."],
    ['-a.b', "Invalid domain: Subdomains cannot start or end with a '-'."],
    ['ex ample.com', "Invalid domain: Domain can only have letters, numbers, '.' and '-'s."],
    ['example.org', 'The domain example.org is already a part of your organization.'],
  ];
  for (const [domain, msg] of cases) assertError(await owner().post('/realm/domains', { domain, allow_subdomains: false }), 'BAD_REQUEST', msg);
  assertError(await owner().patch('/realm/domains/nowhere.org', { allow_subdomains: true }), 'BAD_REQUEST', 'No entry found for domain nowhere.org.');
  assertError(await owner().delete('/realm/domains/nowhere.org'), 'BAD_REQUEST', 'No entry found for domain nowhere.org.');
  expect(await domains(alice)).toEqual([{ domain: 'example.org', allow_subdomains: true }]);
});

test('with emails restricted to the domains, invitations elsewhere are refused', async () => {
  assertSuccess(await owner().patch('/realm', { emails_restricted_to_domains: true }));
  const res = await client(ts, alice).post('/invites', { invitee_emails: 'in@example.org, sub@team.example.org, out@elsewhere.net', stream_ids: [] });
  expect(res.body).toMatchObject({
    result: 'error',
    code: 'INVITATION_FAILED',
    msg: "Some emails did not validate, so we didn't send any invitations.",
    errors: [['out@elsewhere.net', 'Outside your domain.', false]],
    sent_invitations: false,
  });
  assertSuccess(await client(ts, alice).post('/invites', { invitee_emails: 'in@example.org, sub@team.example.org', stream_ids: [] }));
  assertSuccess(await owner().patch('/realm/domains/example.org', { allow_subdomains: false }));
  const sub = await client(ts, alice).post('/invites', { invitee_emails: 'sub2@team.example.org', stream_ids: [] });
  expect(sub.body.errors).toEqual([['sub2@team.example.org', 'Outside your domain.', false]]);
});

test('removing the last domain lifts the restriction', async () => {
  const events = await verifySharedAction(ts, [alice], () => owner().delete('/realm/domains/example.org'));
  expect(events).toEqual([
    { type: 'realm_domains', op: 'remove', domain: 'example.org' },
    { type: 'realm', op: 'update', property: 'emails_restricted_to_domains', value: false },
  ]);
  assertSuccess(await client(ts, alice).post('/invites', { invitee_emails: 'anyone@elsewhere.net', stream_ids: [] }));
});
