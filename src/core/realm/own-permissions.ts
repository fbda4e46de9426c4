import type { RegisterState, StateSlice } from '../register/slice';
import { cachedSystemGroupIds, holdsGroupSetting, recursiveGroupIdsOf, SystemGroupIds } from '../channels/group-settings';
import type { GroupSettingValue } from '../groups/setting-values';
import { SYSTEM_GROUPS } from '../groups/system-groups';
import type { User } from '../users/model';
import { isGuestRole, Role } from '../users/roles';
import { REALM_SETTINGS_BY_NAME, RealmGroupSpec } from './catalog';
import { storedRealmSettings } from './setting-store';

type Holder = Pick<User, 'id' | 'role'>;

/** The organization settings these permissions derive from. */
const POLICIES = [
  'can_create_public_channel_group',
  'can_create_private_channel_group',
  'can_create_web_public_channel_group',
  'can_add_subscribers_group',
  'can_invite_users_group',
] as const;
type Policy = (typeof POLICIES)[number];

interface Policies {
  values: Record<Policy, GroupSettingValue>;
  spectatorAccess: boolean;
}

/**
 * What the requester may do under the organization's policies (fetch type `realm_user`): channel
 * creation, adding subscribers, invitations.
 */
function permissions(user: Holder, groupIds: Set<number>, policies: Policies): RegisterState {
  const holds = (policy: Policy) => {
    const spec = REALM_SETTINGS_BY_NAME.get(policy) as RealmGroupSpec;
    if (!spec.allowEveryone && isGuestRole(user.role)) return false;
    return holdsGroupSetting(user, groupIds, policies.values[policy]);
  };
  const isPublic = holds('can_create_public_channel_group');
  const isPrivate = holds('can_create_private_channel_group');
  const isWebPublic = policies.spectatorAccess && holds('can_create_web_public_channel_group');
  return {
    can_create_public_streams: isPublic,
    can_create_private_streams: isPrivate,
    can_create_web_public_streams: isWebPublic,
    can_create_streams: isPublic || isPrivate || isWebPublic,
    can_subscribe_other_users: holds('can_add_subscribers_group'),
    can_invite_others_to_realm: holds('can_invite_users_group'),
  };
}

async function loadPolicies(db: Parameters<typeof storedRealmSettings>[0], realmId: number, systemGroups: SystemGroupIds): Promise<Policies> {
  const stored = await storedRealmSettings(db, realmId);
  const values = {} as Record<Policy, GroupSettingValue>;
  for (const policy of POLICIES) {
    const spec = REALM_SETTINGS_BY_NAME.get(policy) as RealmGroupSpec;
    values[policy] = (stored[policy] as GroupSettingValue | undefined) ?? systemGroups[spec.default];
  }
  return { values, spectatorAccess: stored.enable_spectator_access === true };
}

/**
 * The system groups a role's holder belongs to: each role group contains the stronger ones, and
 * members are full members (the waiting period is zero).
 */
function roleGroupIds(role: number, systemGroups: SystemGroupIds): number[] {
  const own = role === Role.MEMBER ? 'role:fullmembers' : SYSTEM_GROUPS.find((g) => g.role === role)?.name;
  const out: number[] = [];
  for (let name: string | null = own ?? null; name; ) {
    out.push(systemGroups[name as keyof SystemGroupIds]);
    name = SYSTEM_GROUPS.find((g) => g.subgroup === name)?.name ?? null;
  }
  return out;
}

const CONTEXT = Symbol('ownPermissionsContext');

interface Context {
  systemGroups: SystemGroupIds;
  policies: Policies;
  role: number;
  /** The requester's groups other than system groups, which roles do not change. */
  otherGroups: number[];
}

export const ownPermissionsSlice: StateSlice = {
  fetchTypes: ['realm_user'],
  async fetch(deps, me) {
    const systemGroups = await cachedSystemGroupIds(deps.knex, deps.knex, deps.realmId);
    const groupIds = await recursiveGroupIdsOf(deps.knex, me.id);
    const systemIds = new Set(Object.values(systemGroups));
    const policies = await loadPolicies(deps.knex, deps.realmId, systemGroups);
    const state = permissions(me, groupIds, policies);
    const context: Context = { systemGroups, policies, role: me.role, otherGroups: [...groupIds].filter((id) => !systemIds.has(id)) };
    (state as Record<symbol, unknown>)[CONTEXT] = context;
    return state;
  },
  apply(state, event, me) {
    const context = (state as Record<symbol, unknown>)[CONTEXT] as Context | undefined;
    if (!context) return;
    if (event.type === 'realm_user' && event.op === 'update') {
      const person = event.person as { user_id: number; role?: number };
      if (person.user_id !== me.id || person.role === undefined) return;
      context.role = person.role;
    } else if (event.type === 'realm' && event.op === 'update_dict' && event.data && typeof event.data === 'object') {
      const data = event.data as Record<string, unknown>;
      for (const policy of POLICIES) if (policy in data) context.policies.values[policy] = data[policy] as GroupSettingValue;
    } else if (event.type === 'realm' && event.op === 'update' && event.property === 'enable_spectator_access') {
      context.policies.spectatorAccess = event.value === true;
    } else {
      return;
    }
    const groupIds = new Set([...context.otherGroups, ...roleGroupIds(context.role, context.systemGroups)]);
    Object.assign(state, permissions({ id: me.id, role: context.role }, groupIds, context.policies));
  },
};
