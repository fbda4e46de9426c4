import { afterSubscriptionEvent, messageReducers } from './reducer-messages';

/**
 * A client-side model of POST /register state, written independently of the server's slices: the
 * test oracle for events. verifyAction applies an action's events here and compares the result with
 * a fresh register. Each event type has its own reducer, written as a client that knows only the
 * register response and the events it received would write it; a feature adds its types to
 * `reducers`. An event type (or op) without a reducer fails the test, so no event goes unchecked.
 */
export type State = Record<string, any>;
export type Event = Record<string, any> & { type: string };

export interface ReducerContext {
  /** The registering user. */
  userId: number;
  /** Whether the client asked for subscriber lists (include_subscribers true or "partial"). */
  includeSubscribers?: boolean;
  /**
   * The user's own settings of channels they were subscribed to once, by channel id. A channel that
   * comes back into sight belongs with `unsubscribed`, with these settings; events do not carry
   * them, so (as Zulip's own event tests do) the oracle reads them from the database.
   */
  pastSubscriptions?: Map<number, State>;
  /** Whether the client registered with client_gravatar (POST /register's default is true). */
  clientGravatar?: boolean;
}

type Reducer = (state: State, event: Event, ctx: ReducerContext) => void;

const ROLE = { OWNER: 100, ADMINISTRATOR: 200, MODERATOR: 300, MEMBER: 400, GUEST: 600 };

function roleFlags(role: number) {
  return {
    is_owner: role === ROLE.OWNER,
    is_admin: role === ROLE.OWNER || role === ROLE.ADMINISTRATOR,
    is_guest: role === ROLE.GUEST,
  };
}

const unexpected = (event: Event): never => {
  throw new Error(`no reducer for ${event.type} op ${event.op}`);
};

const ascending = (ids: Iterable<number>) => [...new Set(ids)].sort((a, b) => a - b);
const byName = (a: State, b: State) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

// ---- Group-setting values: a group id, or {direct_members, direct_subgroups}. ----

function isAnonymousSetting(value: unknown): value is { direct_members: number[]; direct_subgroups: number[] } {
  return typeof value === 'object' && value !== null && Array.isArray((value as State).direct_members);
}

/** Removes a user from every anonymous group-setting value held directly by `holder`. */
function dropFromSettings(holder: State, userId: number): void {
  for (const [key, value] of Object.entries(holder)) {
    if (isAnonymousSetting(value)) holder[key] = { ...value, direct_members: value.direct_members.filter((id) => id !== userId) };
  }
}

// ---- realm_user ----

const USER_LISTS = ['realm_users', 'realm_non_active_users'];
const CHANNEL_LISTS = ['subscriptions', 'unsubscribed', 'never_subscribed'];

/** What a client forgets about a deactivated user: memberships and permissions no longer count. */
function forgetDeactivatedUser(state: State, userId: number): void {
  for (const group of state.realm_user_groups ?? []) {
    group.members = group.members.filter((id: number) => id !== userId);
    dropFromSettings(group, userId);
  }
  for (const key of CHANNEL_LISTS) {
    for (const entry of state[key] ?? []) {
      if (entry.subscribers)
        setSubscribers(
          entry,
          entry.subscribers.filter((id: number) => id !== userId),
        );
      dropFromSettings(entry, userId);
    }
  }
  for (const stream of state.streams ?? []) dropFromSettings(stream, userId);
  syncStreamCounts(state);
}

function realmUser(state: State, event: Event, ctx: ReducerContext): void {
  const person = event.person;
  // Memberships and permissions follow the user's state even when the user list was not fetched.
  if (event.op === 'update' && person.is_active === false) forgetDeactivatedUser(state, person.user_id);
  if (!('realm_users' in state)) return;
  const find = (key: string) => (state[key] as State[]).findIndex((u) => u.user_id === person.user_id);
  switch (event.op) {
    case 'add': {
      if (find('realm_users') < 0) state.realm_users.push(structuredClone(person));
      return;
    }
    case 'remove': {
      state.realm_users = state.realm_users.filter((u: State) => u.user_id !== person.user_id);
      return;
    }
    case 'update': {
      if (person.is_active === false && find('realm_users') >= 0) {
        const [moved] = state.realm_users.splice(find('realm_users'), 1);
        state.realm_non_active_users.push(moved);
      } else if (person.is_active === true && find('realm_non_active_users') >= 0) {
        const [moved] = state.realm_non_active_users.splice(find('realm_non_active_users'), 1);
        state.realm_users.push(moved);
      }
      const key = USER_LISTS.find((k) => find(k) >= 0);
      if (!key) throw new Error(`realm_user update for unknown user ${person.user_id}`);
      const target = state[key][find(key)];
      const { user_id: _id, custom_profile_field: field, new_email: newEmail, avatar_url_medium: _medium, avatar_source: _source, ...changes } = person;
      const oldEmail = target.email;
      Object.assign(target, changes);
      if (newEmail !== undefined) target.email = newEmail;
      // Presence in the legacy layout is keyed by address: it follows the user's new address.
      if (newEmail !== undefined && newEmail !== oldEmail && state.presences?.[oldEmail] !== undefined) {
        state.presences[newEmail] = state.presences[oldEmail];
        delete state.presences[oldEmail];
      }
      // With client_gravatar, a client that can see the real address computes gravatar URLs itself.
      if (changes.avatar_url !== undefined && person.avatar_source === 'G' && ctx.clientGravatar && typeof target.delivery_email === 'string') {
        target.avatar_url = null;
      }
      if (changes.role !== undefined) Object.assign(target, roleFlags(changes.role));
      if (field !== undefined && target.profile_data) {
        const id = String(field.id);
        if (field.value === null) delete target.profile_data[id];
        else
          target.profile_data[id] = field.rendered_value === undefined ? { value: field.value } : { value: field.value, rendered_value: field.rendered_value };
      }
      if (person.user_id === ctx.userId && 'user_id' in state) {
        for (const own of ['full_name', 'delivery_email', 'avatar_url', 'avatar_url_medium', 'avatar_source'])
          if (person[own] !== undefined) state[own] = person[own];
        if (newEmail !== undefined) state.email = newEmail;
        if (changes.role !== undefined) {
          state.user_role = changes.role;
          Object.assign(state, roleFlags(changes.role));
          state.is_moderator = changes.role === ROLE.MODERATOR;
          // Under the organization's default policies, members and stronger roles may create
          // channels, add subscribers and invite; web-public channels are not offered.
          if ('can_create_streams' in state) {
            const member = changes.role <= ROLE.MEMBER;
            Object.assign(state, {
              can_create_streams: member,
              can_create_public_streams: member,
              can_create_private_streams: member,
              can_create_web_public_streams: false,
              can_subscribe_other_users: member,
              can_invite_others_to_realm: member,
            });
          }
        }
      }
      return;
    }
    default:
      unexpected(event);
  }
}

function customProfileFields(state: State, event: Event): void {
  if (!('custom_profile_fields' in state)) return;
  state.custom_profile_fields = structuredClone(event.fields);
  // Values of fields that no longer exist disappear from users' profiles.
  const ids = new Set(event.fields.map((f: State) => String(f.id)));
  for (const key of USER_LISTS) {
    for (const user of state[key] ?? []) {
      if (!user.profile_data) continue;
      for (const id of Object.keys(user.profile_data)) if (!ids.has(id)) delete user.profile_data[id];
    }
  }
}

// ---- user_group ----

function userGroup(state: State, event: Event): void {
  if (!('realm_user_groups' in state)) return;
  const groups = state.realm_user_groups as State[];
  if (event.op === 'add') {
    if (groups.some((g) => g.id === event.group.id)) throw new Error(`group ${event.group.id} added twice`);
    groups.push(structuredClone(event.group));
    groups.sort((a, b) => a.id - b.id);
    return;
  }
  if (event.op === 'remove') {
    state.realm_user_groups = groups.filter((g) => g.id !== event.group_id);
    return;
  }
  // Events about groups the client does not hold (deactivated ones it was not sent) are ignored.
  const group = groups.find((g) => g.id === event.group_id);
  switch (event.op) {
    case 'update':
      if (group) Object.assign(group, structuredClone(event.data));
      return;
    case 'add_members':
      if (group) group.members = ascending([...group.members, ...event.user_ids]);
      return;
    case 'remove_members':
      if (group) group.members = group.members.filter((id: number) => !event.user_ids.includes(id));
      return;
    case 'add_subgroups':
      if (group) group.direct_subgroup_ids = ascending([...group.direct_subgroup_ids, ...event.direct_subgroup_ids]);
      return;
    case 'remove_subgroups':
      if (group) group.direct_subgroup_ids = group.direct_subgroup_ids.filter((id: number) => !event.direct_subgroup_ids.includes(id));
      return;
    default:
      unexpected(event);
  }
}

// ---- channel_folder ----

function channelFolder(state: State, event: Event): void {
  if (!('channel_folders' in state)) return;
  const folders = state.channel_folders as State[];
  switch (event.op) {
    case 'add':
      folders.push(structuredClone(event.channel_folder));
      return;
    case 'update': {
      const folder = folders.find((f) => f.id === event.channel_folder_id);
      if (!folder) throw new Error(`update of unknown folder ${event.channel_folder_id}`);
      Object.assign(folder, structuredClone(event.data));
      return;
    }
    case 'reorder':
      event.order.forEach((id: number, index: number) => {
        const folder = folders.find((f) => f.id === id);
        if (folder) folder.order = index;
      });
      return;
    default:
      unexpected(event);
  }
}

// ---- subscription and stream ----

function setSubscribers(entry: State, ids: number[]): void {
  entry.subscribers = ascending(ids);
  entry.subscriber_count = entry.subscribers.length;
}

/** Channel entries of `streams` take their counts from subscriber lists the state tracks. */
function syncStreamCounts(state: State): void {
  for (const stream of state.streams ?? []) {
    for (const key of CHANNEL_LISTS) {
      const entry = (state[key] ?? []).find((e: State) => e.stream_id === stream.stream_id);
      if (entry?.subscribers) stream.subscriber_count = entry.subscribers.length;
    }
  }
}

function channelEntries(state: State, streamId: number): State[] {
  const out: State[] = [];
  for (const key of [...CHANNEL_LISTS, 'streams']) for (const entry of state[key] ?? []) if (entry.stream_id === streamId) out.push(entry);
  return out;
}

function sortChannelLists(state: State): void {
  for (const key of [...CHANNEL_LISTS, 'streams']) state[key]?.sort(byName);
}

function subscription(state: State, event: Event, ctx: ReducerContext): void {
  const tracked = 'subscriptions' in state;
  switch (event.op) {
    case 'add': {
      if (tracked) {
        const ids = new Set(event.subscriptions.map((s: State) => s.stream_id));
        for (const sub of event.subscriptions) {
          if (state.subscriptions.some((s: State) => s.stream_id === sub.stream_id)) continue;
          const copy = structuredClone(sub);
          if (!ctx.includeSubscribers) delete copy.subscribers;
          state.subscriptions.push(copy);
        }
        state.unsubscribed = state.unsubscribed.filter((s: State) => !ids.has(s.stream_id));
        state.never_subscribed = state.never_subscribed.filter((s: State) => !ids.has(s.stream_id));
      }
      for (const sub of event.subscriptions) {
        for (const stream of state.streams ?? []) if (stream.stream_id === sub.stream_id) stream.subscriber_count = sub.subscriber_count;
      }
      break;
    }
    case 'remove': {
      if (!tracked) return;
      const ids = new Set(event.subscriptions.map((s: State) => s.stream_id));
      const leaving = state.subscriptions.filter((s: State) => ids.has(s.stream_id));
      for (const sub of leaving)
        if (sub.subscribers)
          setSubscribers(
            sub,
            sub.subscribers.filter((id: number) => id !== ctx.userId),
          );
      state.unsubscribed.push(...leaving);
      state.subscriptions = state.subscriptions.filter((s: State) => !ids.has(s.stream_id));
      break;
    }
    case 'update': {
      if (!tracked) return;
      // Personal settings are kept for past subscriptions too; unknown channels are ignored.
      for (const key of ['subscriptions', 'unsubscribed']) {
        for (const sub of state[key]) if (sub.stream_id === event.stream_id) sub[event.property] = event.value;
      }
      return;
    }
    case 'peer_add':
    case 'peer_remove': {
      if (!tracked) return;
      const streams = new Set(event.stream_ids);
      for (const key of CHANNEL_LISTS) {
        for (const entry of state[key]) {
          if (!streams.has(entry.stream_id)) continue;
          if (entry.partial_subscribers) {
            // A partial list (include_subscribers="partial") gains and loses the users named.
            const ids =
              event.op === 'peer_add'
                ? [...entry.partial_subscribers, ...event.user_ids]
                : entry.partial_subscribers.filter((id: number) => !event.user_ids.includes(id));
            entry.partial_subscribers = ascending(ids);
            continue;
          }
          if (!entry.subscribers) continue;
          const ids =
            event.op === 'peer_add' ? [...entry.subscribers, ...event.user_ids] : entry.subscribers.filter((id: number) => !event.user_ids.includes(id));
          setSubscribers(entry, ids);
        }
      }
      break;
    }
    default:
      unexpected(event);
  }
  syncStreamCounts(state);
  sortChannelLists(state);
}

function stream(state: State, event: Event, ctx: ReducerContext): void {
  const tracked = 'subscriptions' in state;
  switch (event.op) {
    case 'create':
      for (const created of event.streams) {
        if (channelEntries(state, created.stream_id).length > 0) throw new Error(`channel ${created.stream_id} created twice`);
        const entry = { ...structuredClone(created), ...(ctx.includeSubscribers ? { subscribers: [] } : {}) };
        const past = ctx.pastSubscriptions?.get(created.stream_id);
        if (tracked && past) state.unsubscribed.push({ ...entry, ...past });
        else if (tracked) state.never_subscribed.push(entry);
        state.streams?.push(structuredClone(created));
      }
      break;
    case 'delete': {
      const ids = new Set(event.stream_ids ?? event.streams.map((s: State) => s.stream_id));
      for (const key of [...CHANNEL_LISTS, 'streams']) if (state[key]) state[key] = state[key].filter((e: State) => !ids.has(e.stream_id));
      break;
    }
    case 'update':
      for (const entry of channelEntries(state, event.stream_id)) {
        entry[event.property] = event.value;
        if (event.property === 'description') entry.rendered_description = event.rendered_description;
        for (const extra of ['history_public_to_subscribers', 'is_web_public']) if (event[extra] !== undefined) entry[extra] = event[extra];
      }
      break;
    default:
      unexpected(event);
  }
  syncStreamCounts(state);
  sortChannelLists(state);
}

// ---- personal items ----

/** A list of personal items keyed by `idKey`: add, update (when `single` is given) and remove. */
function keyedList(listKey: string, idKey: string, added: string, single: string | null, removedId: string): Reducer {
  return (state, event) => {
    if (!(listKey in state)) return;
    const list: State[] = state[listKey];
    switch (event.op) {
      case 'add':
        list.push(...structuredClone(event[added]));
        return;
      case 'update': {
        if (single === null) return unexpected(event);
        const index = list.findIndex((item) => item[idKey] === event[single][idKey]);
        if (index < 0) throw new Error(`update of unknown ${listKey} item ${event[single][idKey]}`);
        list[index] = structuredClone(event[single]);
        return;
      }
      case 'remove':
        if (!list.some((item) => item[idKey] === event[removedId])) throw new Error(`removal of unknown ${listKey} item ${event[removedId]}`);
        state[listKey] = list.filter((item) => item[idKey] !== event[removedId]);
        return;
      default:
        unexpected(event);
    }
  };
}

function drafts(state: State, event: Event): void {
  if (!('drafts' in state)) return;
  switch (event.op) {
    case 'add':
      state.drafts.push(...structuredClone(event.drafts));
      return;
    case 'update': {
      const index = state.drafts.findIndex((d: State) => d.id === event.draft.id);
      if (index < 0) throw new Error(`update of unknown draft ${event.draft.id}`);
      state.drafts[index] = structuredClone(event.draft);
      return;
    }
    case 'remove':
      if (!state.drafts.some((d: State) => d.id === event.draft_id)) throw new Error(`removal of unknown draft ${event.draft_id}`);
      state.drafts = state.drafts.filter((d: State) => d.id !== event.draft_id);
      return;
    default:
      unexpected(event);
  }
}

function savedSnippets(state: State, event: Event): void {
  if (!('saved_snippets' in state)) return;
  switch (event.op) {
    case 'add':
      state.saved_snippets.push(structuredClone(event.saved_snippet));
      return;
    case 'update': {
      const index = state.saved_snippets.findIndex((s: State) => s.id === event.saved_snippet.id);
      if (index < 0) throw new Error(`update of unknown snippet ${event.saved_snippet.id}`);
      state.saved_snippets[index] = structuredClone(event.saved_snippet);
      return;
    }
    case 'remove':
      state.saved_snippets = state.saved_snippets.filter((s: State) => s.id !== event.saved_snippet_id);
      return;
    default:
      unexpected(event);
  }
}

function navigationView(state: State, event: Event): void {
  if (!('navigation_views' in state)) return;
  switch (event.op) {
    case 'add':
      state.navigation_views.push(structuredClone(event.navigation_view));
      return;
    case 'update': {
      const view = state.navigation_views.find((v: State) => v.fragment === event.fragment);
      if (!view) throw new Error(`update of unknown view ${event.fragment}`);
      Object.assign(view, structuredClone(event.data));
      return;
    }
    case 'remove':
      state.navigation_views = state.navigation_views.filter((v: State) => v.fragment !== event.fragment);
      return;
    default:
      unexpected(event);
  }
}

// ---- settings ----

function userSettings(state: State, event: Event): void {
  if (event.op !== 'update') unexpected(event);
  if (state.user_settings) state.user_settings[event.property] = event.value;
  // Clients without user_settings_object also hold their settings at the top level of the state.
  if (event.property in state) state[event.property] = event.value;
  // With synchronization off the server keeps no drafts (and sends no removal for them).
  if (event.property === 'enable_drafts_synchronization' && event.value === false && 'drafts' in state) state.drafts = [];
}

function realmUserSettingsDefaults(state: State, event: Event): void {
  if (event.op !== 'update') unexpected(event);
  if (state.realm_user_settings_defaults) state.realm_user_settings_defaults[event.property] = event.value;
}

// ---- presence ----

/**
 * Presence state is keyed by user id in the modern format (slim_presence) and by API email in the
 * legacy one; the event is modern (`presences`, simplified_presence_events) or legacy (one client's
 * status and timestamp, with the address unless the client registered with slim_presence).
 */
function presence(state: State, event: Event): void {
  if (!state.presences) return;
  const keys = Object.keys(state.presences);
  const modernState = keys.length === 0 ? event.email === undefined : keys.every((k) => /^\d+$/.test(k));
  if (event.presences) {
    // Modern event: entries keyed by user id, for a modern state.
    if (!modernState) throw new Error('a modern presence event reached a legacy presence state');
    Object.assign(state.presences, structuredClone(event.presences));
    return;
  }
  const website = event.presence.website;
  if (event.email === undefined) {
    // Legacy event for a slim_presence client: its state is modern, keyed by user id. The event has
    // one time: when the user was last active (status "active"), or last connected ("idle"), in
    // which case the last activity is unchanged.
    if (!modernState) throw new Error('a legacy presence event without address reached a legacy presence state');
    const key = String(event.user_id);
    const before = state.presences[key];
    state.presences[key] =
      website.status === 'active'
        ? { active_timestamp: website.timestamp, idle_timestamp: website.timestamp }
        : { active_timestamp: before?.active_timestamp ?? website.timestamp, idle_timestamp: website.timestamp };
    return;
  }
  if (keys.length > 0 && modernState) throw new Error('a legacy presence event reached a modern presence state');
  state.presences[event.email] = {
    aggregated: { client: website.client, status: website.status, timestamp: website.timestamp },
    website: structuredClone(website),
  };
}

// ---- user status, muted users, alert words ----

/**
 * Zulip's client-side rule for user_status: `away` true sets it and false removes it; the text and
 * the emoji fields are set, or removed when empty; an emptied emoji name also drops its type; an
 * entry left empty disappears.
 */
function userStatus(state: State, event: Event): void {
  if (!state.user_status) return;
  const key = String(event.user_id);
  const entry: State = { ...(state.user_status[key] ?? {}) };
  if (event.away !== undefined) {
    if (event.away) entry.away = true;
    else delete entry.away;
  }
  for (const field of ['status_text', 'emoji_name', 'emoji_code']) {
    if (event[field] === undefined) continue;
    if (event[field] === '') delete entry[field];
    else entry[field] = event[field];
  }
  if (event.emoji_name === '') delete entry.reaction_type;
  else if (event.reaction_type !== undefined) entry.reaction_type = event.reaction_type;
  if (Object.keys(entry).length > 0) state.user_status[key] = entry;
  else delete state.user_status[key];
}

// ---- realm ----

/** The groups (ids) the user belongs to, directly or through subgroups, as register reports them. */
function ownGroupIds(state: State, userId: number): Set<number> {
  const groups = (state.realm_user_groups ?? []) as State[];
  const mine = new Set<number>(groups.filter((g) => (g.members as number[]).includes(userId)).map((g) => g.id));
  for (let grown = true; grown; ) {
    grown = false;
    for (const g of groups) {
      if (!mine.has(g.id) && (g.direct_subgroup_ids as number[]).some((id) => mine.has(id))) {
        mine.add(g.id);
        grown = true;
      }
    }
  }
  return mine;
}

/** Legacy enum forms of group settings, from the system group that holds the setting. */
const LEGACY_POLICIES: [string, string, Record<string, number>, number][] = [
  [
    'create_public_stream_policy',
    'can_create_public_channel_group',
    { 'role:members': 1, 'role:administrators': 2, 'role:fullmembers': 3, 'role:moderators': 4 },
    1,
  ],
  [
    'create_private_stream_policy',
    'can_create_private_channel_group',
    { 'role:members': 1, 'role:administrators': 2, 'role:fullmembers': 3, 'role:moderators': 4 },
    1,
  ],
  [
    'create_web_public_stream_policy',
    'can_create_web_public_channel_group',
    { 'role:administrators': 2, 'role:moderators': 4, 'role:nobody': 6, 'role:owners': 7 },
    4,
  ],
  [
    'wildcard_mention_policy',
    'can_mention_many_users_group',
    { 'role:everyone': 1, 'role:members': 2, 'role:fullmembers': 3, 'role:administrators': 5, 'role:nobody': 6, 'role:moderators': 7 },
    1,
  ],
];

/** What a client recomputes after an organization setting changes. */
function afterRealmChange(state: State, userId: number): void {
  const groupName = (id: unknown) => ((state.realm_user_groups ?? []) as State[]).find((g) => g.id === id && g.is_system_group)?.name as string | undefined;
  if ('realm_user_groups' in state) {
    for (const [legacy, setting, policy, fallback] of LEGACY_POLICIES) {
      const name = groupName(state[`realm_${setting}`]);
      state[`realm_${legacy}`] = (name && policy[name]) ?? fallback;
    }
  }
  state.realm_allow_edit_history = state.realm_message_edit_history_visibility_policy !== 'none';
  state.realm_mandatory_topics = state.realm_topics_policy === 'disable_empty_topic';
  if ('jitsi_server_url' in state) state.jitsi_server_url = state.realm_jitsi_server_url ?? state.server_jitsi_server_url;
  recomputeOwnPermissions(state, userId);
}

/** The user's own permissions, from the organization's policies and the groups they belong to. */
function recomputeOwnPermissions(state: State, userId: number): void {
  if (!('can_create_streams' in state) || !('realm_user_groups' in state)) return;
  const mine = ownGroupIds(state, userId);
  const guest = state.user_role === ROLE.GUEST;
  const holds = (setting: string, guestsMay = false) => {
    if (guest && !guestsMay) return false;
    const value = state[`realm_${setting}`];
    if (typeof value === 'number') return mine.has(value);
    return (value.direct_members as number[]).includes(userId) || (value.direct_subgroups as number[]).some((id) => mine.has(id));
  };
  const isPublic = holds('can_create_public_channel_group');
  const isPrivate = holds('can_create_private_channel_group');
  const isWebPublic = state.realm_enable_spectator_access === true && holds('can_create_web_public_channel_group');
  Object.assign(state, {
    can_create_public_streams: isPublic,
    can_create_private_streams: isPrivate,
    can_create_web_public_streams: isWebPublic,
    can_create_streams: isPublic || isPrivate || isWebPublic,
    can_subscribe_other_users: holds('can_add_subscribers_group'),
    can_invite_others_to_realm: holds('can_invite_users_group'),
  });
}

function realm(state: State, event: Event, ctx: ReducerContext): void {
  if (!('realm_name' in state)) return;
  if (event.op === 'update') state[`realm_${event.property}`] = event.value;
  else if (event.op === 'update_dict') {
    // The description's rendering rides along with it; register has no realm_rendered_description.
    for (const [key, value] of Object.entries(event.data)) if (key !== 'rendered_description') state[`realm_${key}`] = value;
  } else unexpected(event);
  afterRealmChange(state, ctx.userId);
}

/** realm_bots: the bots the client administers (add, field updates, delete when it no longer does). */
function realmBot(state: State, event: Event): void {
  if (!('realm_bots' in state)) return;
  const bot = event.bot;
  const index = (state.realm_bots as State[]).findIndex((b) => b.user_id === bot.user_id);
  switch (event.op) {
    case 'add':
      if (index >= 0) throw new Error(`realm_bot add for a known bot ${bot.user_id}`);
      state.realm_bots.push(structuredClone(bot));
      return;
    case 'update':
      if (index < 0) throw new Error(`realm_bot update for unknown bot ${bot.user_id}`);
      Object.assign(state.realm_bots[index], structuredClone(bot));
      return;
    case 'delete':
    case 'remove':
      state.realm_bots = state.realm_bots.filter((b: State) => b.user_id !== bot.user_id);
      return;
    default:
      unexpected(event);
  }
}

export const reducers: Record<string, Reducer> = {
  realm_user: realmUser,
  realm_bot: realmBot,
  custom_profile_fields: customProfileFields,
  user_group: (state, event, ctx) => {
    userGroup(state, event);
    // Membership decides the permissions limited to groups (e.g. role:fullmembers).
    if (['add_members', 'remove_members', 'add_subgroups', 'remove_subgroups'].includes(event.op)) recomputeOwnPermissions(state, ctx.userId);
  },
  channel_folder: channelFolder,
  subscription: (state, event, ctx) => {
    subscription(state, event, ctx);
    afterSubscriptionEvent(state, event);
  },
  stream,
  realm_emoji: (state, event) => {
    if (event.op !== 'update') unexpected(event);
    if ('realm_emoji' in state) state.realm_emoji = structuredClone(event.realm_emoji);
  },
  drafts,
  scheduled_messages: keyedList('scheduled_messages', 'scheduled_message_id', 'scheduled_messages', 'scheduled_message', 'scheduled_message_id'),
  reminders: keyedList('reminders', 'reminder_id', 'reminders', null, 'reminder_id'),
  saved_snippets: savedSnippets,
  navigation_view: navigationView,
  user_settings: userSettings,
  realm_user_settings_defaults: realmUserSettingsDefaults,
  presence,
  user_status: userStatus,
  muted_users: (state, event) => {
    if ('muted_users' in state) state.muted_users = structuredClone(event.muted_users);
  },
  alert_words: (state, event) => {
    if ('alert_words' in state) state.alert_words = structuredClone(event.alert_words);
  },
  has_zoom_token: (state, event) => {
    if ('has_zoom_token' in state) state.has_zoom_token = event.value;
  },
  realm,
  realm_domains: (state, event) => {
    if (!('realm_domains' in state)) return;
    const byDomain = (a: State, b: State) => (a.domain < b.domain ? -1 : 1);
    if (event.op === 'add') state.realm_domains = [...state.realm_domains, event.realm_domain].sort(byDomain);
    else if (event.op === 'change')
      state.realm_domains = state.realm_domains.map((d: State) => (d.domain === event.realm_domain.domain ? event.realm_domain : d));
    else if (event.op === 'remove') state.realm_domains = state.realm_domains.filter((d: State) => d.domain !== event.domain);
    else unexpected(event);
  },
  default_streams: (state, event) => {
    if ('realm_default_streams' in state) state.realm_default_streams = event.default_streams;
  },
  realm_linkifiers: (state, event) => {
    if ('realm_linkifiers' in state) state.realm_linkifiers = structuredClone(event.realm_linkifiers);
  },
  realm_playgrounds: (state, event) => {
    if ('realm_playgrounds' in state) state.realm_playgrounds = structuredClone(event.realm_playgrounds);
  },
  // As the mobile app keeps its devices map: a new device has no push registration yet; an update
  // replaces the fields it carries.
  device: (state, event) => {
    if (!state.devices) return;
    const key = String(event.device_id);
    if (event.op === 'add') {
      state.devices[key] = {
        push_key_id: null,
        push_token_id: null,
        pending_push_token_id: null,
        push_token_last_updated_timestamp: null,
        push_registration_error_code: null,
      };
    } else if (event.op === 'remove') delete state.devices[key];
    else if (event.op === 'update' && state.devices[key]) {
      for (const [field, value] of Object.entries(event)) if (!['id', 'type', 'op', 'device_id'].includes(field)) state.devices[key][field] = value;
    } else unexpected(event);
  },
  // Invitations are not part of the register state; the event only tells clients to refetch them.
  invites_changed: () => {},
  // Uploaded files are not part of the register state either (GET /attachments lists them).
  attachment: () => {},
  heartbeat: () => {},
  // Typing is ephemeral: no register state.
  typing: () => {},
  typing_edit_message: () => {},
  restart: () => {},
  ...messageReducers,
};

export function applyEvents(state: State, events: Event[], ctx: ReducerContext): State {
  const next = structuredClone(state);
  for (const event of events) {
    const reduce = reducers[event.type];
    if (!reduce) throw new Error(`no reducer for event type ${event.type}`);
    reduce(next, event, ctx);
  }
  return next;
}

/**
 * Keys that legitimately differ between two registers: queue identity and clocks, and the presence
 * update id, which events do not carry (a client only uses it to ask for what changed since).
 */
const VOLATILE_KEYS = ['queue_id', 'last_event_id', 'server_timestamp', 'result', 'msg', 'presence_last_update_id'];

/** Lists whose order a client does not keep from events: compared by id. */
const ORDER_FREE_LISTS: Record<string, (item: State) => number | string> = {
  realm_users: (u) => u.user_id,
  realm_non_active_users: (u) => u.user_id,
  drafts: (d) => d.id,
  scheduled_messages: (m) => m.scheduled_message_id,
  reminders: (r) => r.reminder_id,
  saved_snippets: (s) => s.id,
  navigation_views: (v) => v.fragment,
  channel_folders: (f) => f.id,
  realm_bots: (b) => b.user_id,
};

/**
 * The comparable part of a register response: volatile keys dropped, order-free lists sorted. A
 * channel entry without a subscriber list has a count no event keeps exact (nothing tells the
 * client whether a deactivated user was subscribed), so such counts are left out.
 */
export function comparableState(state: State): State {
  const out = structuredClone(state);
  for (const key of VOLATILE_KEYS) delete out[key];
  for (const [key, id] of Object.entries(ORDER_FREE_LISTS)) {
    if (Array.isArray(out[key])) out[key].sort((a: State, b: State) => (id(a) < id(b) ? -1 : id(a) > id(b) ? 1 : 0));
  }
  const tracked = CHANNEL_LISTS.every((key) => Array.isArray(out[key]));
  for (const key of CHANNEL_LISTS) for (const entry of out[key] ?? []) if (!entry.subscribers) delete entry.subscriber_count;
  for (const stream of out.streams ?? []) {
    const listed = tracked && CHANNEL_LISTS.some((key) => out[key].some((e: State) => e.stream_id === stream.stream_id && e.subscribers));
    if (!listed) delete stream.subscriber_count;
  }
  return out;
}
