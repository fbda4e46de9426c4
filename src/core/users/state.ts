import type { ZulipEvent } from '../../realtime/bus';
import type { RegisterState, StateSlice } from '../register/slice';
import { crossRealmBots } from '../system-bots/notification-bot';
import { User } from './model';
import { realmAccounts, realmProfileData } from './own-values';
import { isAdminRole, isGuestRole, isModeratorOrAbove, isOwnerRole } from './roles';
import { mediumAvatarUrl, userDict, UserDict } from './view';

type People = UserDict[];

/** realm_users (active accounts), realm_non_active_users, and the requester's own fields. */
export const usersSlice: StateSlice = {
  fetchTypes: ['realm_user'],
  async fetch(deps, me, options) {
    const [users, profileData] = await Promise.all([realmAccounts(deps), realmProfileData(deps)]);
    const view = (u: User) => userDict(deps.config, me, u, { clientGravatar: options.clientGravatar, includeProfileData: true, profileData });
    const self = users.find((u) => u.id === me.id) ?? me;
    // The requester's own avatar is never left to the client, whatever client_gravatar says.
    const ownAvatarUrl = userDict(deps.config, self, self, { clientGravatar: false, includeProfileData: false }).avatar_url as string;
    return {
      realm_users: users.filter((u) => u.is_active).map(view),
      realm_non_active_users: users.filter((u) => !u.is_active).map(view),
      cross_realm_bots: await crossRealmBots(deps.knex, deps.config, me),
      user_id: self.id,
      email: self.delivery_email,
      delivery_email: self.delivery_email,
      full_name: self.full_name,
      is_admin: isAdminRole(self.role),
      is_owner: isOwnerRole(self.role),
      is_moderator: isModeratorOrAbove(self.role) && !isAdminRole(self.role),
      is_guest: isGuestRole(self.role),
      user_role: self.role,
      avatar_source: self.avatar_source,
      avatar_url: ownAvatarUrl,
      avatar_url_medium: mediumAvatarUrl(ownAvatarUrl),
      can_create_users: self.can_create_users,
    };
  },
  apply(state, event, me) {
    if (event.type !== 'realm_user') return;
    applyRealmUser(state, event, me.id);
  },
};

export function applyRealmUser(state: RegisterState, event: ZulipEvent, myId: number): void {
  const active = state.realm_users as People;
  const inactive = state.realm_non_active_users as People;
  const person = event.person as Partial<UserDict> & { user_id: number };
  if (event.op === 'add') {
    if (!active.some((u) => u.user_id === person.user_id)) active.push(person as UserDict);
    return;
  }
  if (event.op === 'remove') {
    state.realm_users = active.filter((u) => u.user_id !== person.user_id);
    return;
  }
  if (event.op !== 'update') return;
  const {
    user_id,
    is_active,
    custom_profile_field,
    new_email,
    avatar_source,
    avatar_url_medium: medium,
    ...changes
  } = person as typeof person & {
    custom_profile_field?: { id: number; value: string | null; rendered_value?: string };
    new_email?: string;
    avatar_source?: string;
    avatar_url_medium?: string;
  };
  // The API email a viewer sees changes with the user's email_address_visibility.
  if (new_email !== undefined) changes.email = new_email;
  if (is_active === false) {
    const moving = active.find((u) => u.user_id === user_id);
    state.realm_users = active.filter((u) => u.user_id !== user_id);
    if (moving && !inactive.some((u) => u.user_id === user_id)) inactive.push({ ...moving, is_active: false });
  } else if (is_active === true) {
    const moving = inactive.find((u) => u.user_id === user_id);
    state.realm_non_active_users = inactive.filter((u) => u.user_id !== user_id);
    if (moving && !active.some((u) => u.user_id === user_id)) active.push({ ...moving, is_active: true });
  }
  for (const list of [state.realm_users as People, state.realm_non_active_users as People]) {
    const target = list.find((u) => u.user_id === user_id);
    if (!target) continue;
    Object.assign(target, changes);
    if (custom_profile_field && !target.is_bot) {
      const data = (target.profile_data ??= {});
      const { id, value, rendered_value } = custom_profile_field;
      if (value === null) delete data[String(id)];
      else data[String(id)] = rendered_value === undefined ? { value } : { value, rendered_value };
    }
    if (changes.role !== undefined) {
      target.is_owner = isOwnerRole(changes.role);
      target.is_admin = isAdminRole(changes.role);
      target.is_guest = isGuestRole(changes.role);
    }
  }
  if (user_id === myId) {
    if (changes.full_name !== undefined) state.full_name = changes.full_name;
    if (avatar_source !== undefined) state.avatar_source = avatar_source;
    if (changes.avatar_url !== undefined) state.avatar_url = changes.avatar_url;
    if (medium !== undefined) state.avatar_url_medium = medium;
    if (changes.role !== undefined) {
      state.user_role = changes.role;
      state.is_admin = isAdminRole(changes.role);
      state.is_owner = isOwnerRole(changes.role);
      state.is_moderator = isModeratorOrAbove(changes.role) && !isAdminRole(changes.role);
      state.is_guest = isGuestRole(changes.role);
    }
  }
}
