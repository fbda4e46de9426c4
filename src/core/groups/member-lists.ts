import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { tableCache, TableCacheSpec } from '../../db/table-cache';

/**
 * Every group's active members and direct subgroups, ascending, held by each process. A group
 * dictionary lists its members, and the system groups of a large organization list everyone:
 * POST /register and GET /user_groups would otherwise read tens of thousands of membership rows
 * each time. Kept exact as TableCache describes (any write to the membership tables or to users
 * drops it; user_group and realm_user events drop it in every process), and read again at least
 * once a minute.
 */
export interface MemberLists {
  members: ReadonlyMap<number, readonly number[]>;
  subgroups: ReadonlyMap<number, readonly number[]>;
}

export type MemberListDeps = Pick<AppDeps, 'knex' | 'bus'>;

const spec: TableCacheSpec<MemberLists> = {
  tables: ['user_group_members', 'user_group_subgroups', 'users'],
  eventTypes: ['user_group', 'realm_user'],
  maxAgeMs: 60_000,
  async load(knex: Knex) {
    const memberRows: { group_id: number; user_id: number }[] = await knex('user_group_members as m')
      .join('users as u', 'u.id', 'm.user_id')
      .where('u.is_active', true)
      .orderBy('m.user_id')
      .select('m.group_id', 'm.user_id');
    const subgroupRows: { supergroup_id: number; subgroup_id: number }[] = await knex('user_group_subgroups')
      .orderBy('subgroup_id')
      .select('supergroup_id', 'subgroup_id');
    return memberListsOf(memberRows, subgroupRows);
  },
};

export function cachedMemberLists(deps: MemberListDeps): Promise<MemberLists> {
  return tableCache(deps, spec).get();
}

/** Membership rows, each kind in ascending order of its member, as lists by group. */
export function memberListsOf(
  memberRows: { group_id: number; user_id: number }[],
  subgroupRows: { supergroup_id: number; subgroup_id: number }[],
): MemberLists {
  return {
    members: listsByKey(
      memberRows,
      (r) => r.group_id,
      (r) => r.user_id,
    ),
    subgroups: listsByKey(
      subgroupRows,
      (r) => r.supergroup_id,
      (r) => r.subgroup_id,
    ),
  };
}

/** Rows grouped into lists by key; lists grow in place (system groups have as many members as the organization has people). */
function listsByKey<R>(rows: R[], key: (row: R) => number, value: (row: R) => number): Map<number, number[]> {
  const lists = new Map<number, number[]>();
  for (const row of rows) {
    const list = lists.get(key(row));
    if (list) list.push(value(row));
    else lists.set(key(row), [value(row)]);
  }
  return lists;
}
