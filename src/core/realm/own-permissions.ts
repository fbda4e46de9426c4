import type { RegisterState, StateSlice } from '../../realtime/state';
import { cachedSystemGroupIds, recursiveGroupIdsOf, SystemGroupIds } from '../channels/group-settings';
import { holdsRealmPolicy, webPublicChannelsEnabled } from '../channels/realm-policy';
import { SYSTEM_GROUPS } from '../groups/system-groups';
import { canInviteByEmail } from '../invites/access';
import type { User } from '../users/model';
import { Role } from '../users/roles';

type Holder = Pick<User, 'id' | 'role'>;

/**
 * What the requester may do under the organization's policies (fetch type `realm_user`), asked of
 * the features that enforce them: channel creation and adding subscribers (channels), invitations
 * (invites).
 */
function permissions(user: Holder, groupIds: Set<number>, systemGroups: SystemGroupIds): RegisterState {
  const holds = (policy: Parameters<typeof holdsRealmPolicy>[3]) => holdsRealmPolicy(user, groupIds, systemGroups, policy);
  const isPublic = holds('can_create_public_channel_group');
  const isPrivate = holds('can_create_private_channel_group');
  const isWebPublic = webPublicChannelsEnabled() && holds('can_create_web_public_channel_group');
  return {
    can_create_public_streams: isPublic,
    can_create_private_streams: isPrivate,
    can_create_web_public_streams: isWebPublic,
    can_create_streams: isPublic || isPrivate || isWebPublic,
    can_subscribe_other_users: holds('can_add_subscribers_group'),
    can_invite_others_to_realm: canInviteByEmail(user as User),
  };
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
  /** The requester's groups other than system groups, which roles do not change. */
  otherGroups: number[];
}

export const ownPermissionsSlice: StateSlice = {
  fetchTypes: ['realm_user'],
  async fetch(deps, me) {
    const systemGroups = await cachedSystemGroupIds(deps.knex, deps.knex, deps.realmId);
    const groupIds = await recursiveGroupIdsOf(deps.knex, me.id);
    const systemIds = new Set(Object.values(systemGroups));
    const state = permissions(me, groupIds, systemGroups);
    const context: Context = { systemGroups, otherGroups: [...groupIds].filter((id) => !systemIds.has(id)) };
    (state as Record<symbol, unknown>)[CONTEXT] = context;
    return state;
  },
  apply(state, event, me) {
    if (event.type !== 'realm_user' || event.op !== 'update') return;
    const person = event.person as { user_id: number; role?: number };
    const context = (state as Record<symbol, unknown>)[CONTEXT] as Context | undefined;
    if (person.user_id !== me.id || person.role === undefined || !context) return;
    const groupIds = new Set([...context.otherGroups, ...roleGroupIds(person.role, context.systemGroups)]);
    Object.assign(state, permissions({ id: me.id, role: person.role }, groupIds, context.systemGroups));
  },
};
