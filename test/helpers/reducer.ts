/**
 * A client-side model of POST /register state, written independently of the server's slices: the
 * test oracle for events. verifyAction applies an action's events here and compares the result with
 * a fresh register. Each event type has its own reducer; a feature adds its types to `reducers`.
 * An event type without a reducer fails the test, so no event goes unchecked.
 */
export type State = Record<string, any>;
export type Event = Record<string, any> & { type: string };

export interface ReducerContext {
  /** The registering user. */
  userId: number;
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

function realmUser(state: State, event: Event, ctx: ReducerContext): void {
  if (!('realm_users' in state)) return;
  const person = event.person;
  const byId = (list: State[]) => list.findIndex((u) => u.user_id === person.user_id);
  switch (event.op) {
    case 'add': {
      if (byId(state.realm_users) < 0) state.realm_users.push({ ...person });
      return;
    }
    case 'remove': {
      state.realm_users = state.realm_users.filter((u: State) => u.user_id !== person.user_id);
      return;
    }
    case 'update': {
      let active = byId(state.realm_users);
      let inactive = byId(state.realm_non_active_users);
      if (person.is_active === false && active >= 0) {
        const [moved] = state.realm_users.splice(active, 1);
        state.realm_non_active_users.push(moved);
      } else if (person.is_active === true && inactive >= 0) {
        const [moved] = state.realm_non_active_users.splice(inactive, 1);
        state.realm_users.push(moved);
      }
      active = byId(state.realm_users);
      inactive = byId(state.realm_non_active_users);
      const target = active >= 0 ? state.realm_users[active] : inactive >= 0 ? state.realm_non_active_users[inactive] : null;
      if (!target) throw new Error(`realm_user update for unknown user ${person.user_id}`);
      const { user_id: _id, ...changes } = person;
      Object.assign(target, changes);
      if (changes.role !== undefined) Object.assign(target, roleFlags(changes.role));
      if (person.user_id === ctx.userId && 'user_id' in state) {
        if (changes.full_name !== undefined) state.full_name = changes.full_name;
        if (changes.role !== undefined) {
          state.user_role = changes.role;
          Object.assign(state, roleFlags(changes.role));
          state.is_moderator = changes.role === ROLE.MODERATOR;
        }
      }
      return;
    }
    default:
      throw new Error(`no reducer for realm_user op ${event.op}`);
  }
}

export const reducers: Record<string, Reducer> = {
  realm_user: realmUser,
  heartbeat: () => {},
  // Typing is ephemeral: no register state.
  typing: () => {},
  restart: () => {},
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

/** Keys that legitimately differ between two registers (queue identity, clocks). */
const VOLATILE_KEYS = ['queue_id', 'last_event_id', 'server_timestamp', 'result', 'msg'];

/** The comparable part of a register response: volatile keys dropped, user lists in id order. */
export function comparableState(state: State): State {
  const out = structuredClone(state);
  for (const key of VOLATILE_KEYS) delete out[key];
  for (const key of ['realm_users', 'realm_non_active_users']) {
    if (Array.isArray(out[key])) out[key].sort((a: State, b: State) => a.user_id - b.user_id);
  }
  return out;
}
