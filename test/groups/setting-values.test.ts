import { validateGroupSettingValue } from '../../src/core/groups/access';
import { resolveGroupSetting, isInGroupSetting } from '../../src/core/groups/membership';
import { GROUP_PERMISSION_SETTINGS, normalizeGroupSettingValue, sameGroupSettingValue } from '../../src/core/groups/setting-values';
import { ApiError } from '../../src/errors';
import { assertSuccess, client } from '../helpers/api';
import { makeUser, TestServer } from '../helpers/server';
import { createGroup, GroupsPeople, startGroupsServer } from './fixtures';

// Each suite starts a server and hashes several passwords; a loaded machine needs the headroom.
jest.setTimeout(120_000);

let ts: TestServer;
let people: GroupsPeople;
let sys: Record<string, number>;
beforeAll(async () => {
  ({ ts, people, sys } = await startGroupsServer());
});
afterAll(async () => {
  await ts.close();
});

const db = () => ts.server.deps.knex;
const realm = () => ts.server.deps.realmId;
const sorted = (ids: Iterable<number>) => [...ids].sort((a, b) => a - b);

test('resolveGroupSetting: system groups stand for roles', async () => {
  const everyone = [ts.owner, people.admin, people.moderator, people.alice, people.bob, people.guest].map((u) => u.id);
  expect(sorted(await resolveGroupSetting(db(), realm(), sys['role:administrators']))).toEqual(sorted([ts.owner.id, people.admin.id]));
  expect(sorted(await resolveGroupSetting(db(), realm(), sys['role:members']))).toEqual(sorted(everyone.filter((id) => id !== people.guest.id)));
  expect(sorted(await resolveGroupSetting(db(), realm(), sys['role:everyone']))).toEqual(sorted(everyone));
  expect(sorted(await resolveGroupSetting(db(), realm(), sys['role:internet']))).toEqual(sorted(everyone));
  expect([...(await resolveGroupSetting(db(), realm(), sys['role:nobody']))]).toEqual([]);
});

test('resolveGroupSetting: anonymous values, through subgroups, without deactivated accounts', async () => {
  const gone = await makeUser(ts, 400);
  const team = await createGroup(ts, people.alice, { members: [people.bob.id, gone.id] });
  assertSuccess(await client(ts, ts.owner).delete(`/users/${gone.id}`));
  const value = { direct_members: [people.guest.id, gone.id], direct_subgroups: [team, sys['role:owners']] };
  expect(sorted(await resolveGroupSetting(db(), realm(), value))).toEqual(sorted([people.guest.id, people.bob.id, ts.owner.id]));
  expect(await isInGroupSetting(db(), realm(), value, people.guest.id)).toBe(true);
  expect(await isInGroupSetting(db(), realm(), value, gone.id)).toBe(false);
  expect(await isInGroupSetting(db(), realm(), value, people.admin.id)).toBe(false);
});

test('validateGroupSettingValue returns the canonical form or a Zulip error', async () => {
  const config = GROUP_PERMISSION_SETTINGS.can_manage_group;
  const check = (value: Parameters<typeof validateGroupSettingValue>[2]) => validateGroupSettingValue(db(), realm(), value, 'can_x', config);
  expect(await check({ direct_members: [], direct_subgroups: [sys['role:owners']] })).toBe(sys['role:owners']);
  expect(await check({ direct_members: [people.bob.id, people.alice.id, people.bob.id], direct_subgroups: [] })).toEqual({
    direct_members: sorted([people.alice.id, people.bob.id]),
    direct_subgroups: [],
  });
  await expect(check(sys['role:everyone'])).rejects.toMatchObject({ message: "'can_x' setting cannot be set to 'role:everyone' group." });
  const systemOnly = { ...config, requireSystemGroup: true, allowedSystemGroups: ['role:administrators', 'role:owners'] };
  const team = await createGroup(ts, people.alice);
  await expect(validateGroupSettingValue(db(), realm(), team, 'can_y', systemOnly)).rejects.toMatchObject({
    code: 'SYSTEM_GROUP_REQUIRED',
    message: "'can_y' must be a system user group.",
  });
  await expect(validateGroupSettingValue(db(), realm(), sys['role:members'], 'can_y', systemOnly)).rejects.toBeInstanceOf(ApiError);
  await expect(validateGroupSettingValue(db(), realm(), sys['role:members'], 'can_y', systemOnly)).rejects.toMatchObject({
    message: "'can_y' setting cannot be set to 'role:members' group.",
  });
  expect(await validateGroupSettingValue(db(), realm(), sys['role:owners'], 'can_y', systemOnly)).toBe(sys['role:owners']);
});

test('normalization and equality', () => {
  expect(normalizeGroupSettingValue({ direct_members: [], direct_subgroups: [] }, 99)).toBe(99);
  expect(normalizeGroupSettingValue({ direct_members: [], direct_subgroups: [7] }, 99)).toBe(7);
  expect(sameGroupSettingValue({ direct_members: [2, 1], direct_subgroups: [] }, { direct_members: [1, 2], direct_subgroups: [] })).toBe(true);
  expect(sameGroupSettingValue(3, { direct_members: [], direct_subgroups: [3] })).toBe(false);
  expect(sameGroupSettingValue(3, 3)).toBe(true);
});
