import type { ZulipEvent } from '../../realtime/bus';
import type { RegisterState, StateSlice } from '../register/slice';
import { userGroupEventForClient } from './events';
import { listGroupDicts } from './queries';
import type { UserGroupDict } from './view';

/** realm_user_groups: every named group, deactivated ones only for clients that declared them. */
export const userGroupsSlice: StateSlice = {
  fetchTypes: ['realm_user_groups'],
  async fetch(deps, _me, options) {
    return { realm_user_groups: await listGroupDicts(deps, options.capabilities.include_deactivated_groups) };
  },
  apply(state, event, _me, options) {
    if (event.type !== 'user_group' || !Array.isArray(state.realm_user_groups)) return;
    const shaped = userGroupEventForClient(event, options.capabilities.include_deactivated_groups);
    if (shaped) applyUserGroupEvent(state, shaped);
  },
};

const addIds = (list: number[], ids: number[]) => [...new Set([...list, ...ids])].sort((a, b) => a - b);
const dropIds = (list: number[], ids: number[]) => list.filter((id) => !ids.includes(id));

/** Applies one client-shaped user_group event; applying it twice changes nothing more. */
export function applyUserGroupEvent(state: RegisterState, event: ZulipEvent): void {
  const groups = state.realm_user_groups as UserGroupDict[];
  if (event.op === 'add') {
    const group = event.group as UserGroupDict;
    if (!groups.some((g) => g.id === group.id)) {
      groups.push(structuredClone(group));
      groups.sort((a, b) => a.id - b.id);
    }
    return;
  }
  if (event.op === 'remove') {
    state.realm_user_groups = groups.filter((g) => g.id !== event.group_id);
    return;
  }
  const target = groups.find((g) => g.id === event.group_id);
  if (!target) return;
  switch (event.op) {
    case 'update':
      Object.assign(target, structuredClone(event.data as Partial<UserGroupDict>));
      break;
    case 'add_members':
      target.members = addIds(target.members, event.user_ids as number[]);
      break;
    case 'remove_members':
      target.members = dropIds(target.members, event.user_ids as number[]);
      break;
    case 'add_subgroups':
      target.direct_subgroup_ids = addIds(target.direct_subgroup_ids, event.direct_subgroup_ids as number[]);
      break;
    case 'remove_subgroups':
      target.direct_subgroup_ids = dropIds(target.direct_subgroup_ids, event.direct_subgroup_ids as number[]);
      break;
  }
}
