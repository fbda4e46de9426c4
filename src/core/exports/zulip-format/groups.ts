import type { Knex } from 'knex';
import { GROUP_PERMISSION_SETTING_NAMES, GroupSettingValue } from '../../groups/setting-values';
import { insertedId, Row, Tables } from './layout';

/**
 * User groups in Zulip's layout: every group is a zerver_usergroup row; named ones also have a
 * zerver_namedusergroup row (usergroup_ptr = the group's id). A group-setting value is the id of a
 * group, so an anonymous value (Parley keeps those inline) becomes a zerver_usergroup row without a
 * name, with its members in zerver_usergroupmembership / zerver_groupgroupmembership.
 */
export class GroupExport {
  readonly usergroups: Row[] = [];
  readonly named: Row[] = [];
  readonly memberships: Row[] = [];
  readonly subgroups: Row[] = [];
  private nextId = 1;

  constructor(private readonly realmId: number) {}

  static async load(knex: Knex, realmId: number): Promise<GroupExport> {
    const out = new GroupExport(realmId);
    const groups: Row[] = await knex('user_groups').where('realm_id', realmId).orderBy('id');
    const ids = groups.map((g) => g.id as number);
    out.nextId = Math.max(0, ...ids) + 1;
    const members: Row[] = ids.length ? await knex('user_group_members').whereIn('group_id', ids).orderBy(['group_id', 'user_id']) : [];
    const subs: Row[] = ids.length ? await knex('user_group_subgroups').whereIn('supergroup_id', ids).orderBy(['supergroup_id', 'subgroup_id']) : [];
    for (const g of groups) out.usergroups.push({ id: g.id, realm: realmId });
    for (const m of members) out.addMember(m.group_id as number, m.user_id as number);
    for (const s of subs) out.addSubgroup(s.supergroup_id as number, s.subgroup_id as number);
    for (const g of groups) {
      const settings = (typeof g.settings === 'string' ? JSON.parse(g.settings) : (g.settings ?? {})) as Record<string, GroupSettingValue>;
      const row: Row = {
        usergroup_ptr: g.id,
        realm_for_sharding: realmId,
        realm: realmId,
        name: g.name,
        description: g.description,
        is_system_group: g.is_system_group,
        deactivated: g.deactivated,
        creator: g.creator_id,
        date_created: g.date_created === null ? null : new Date(g.date_created as Date).getTime() / 1000,
      };
      for (const name of GROUP_PERMISSION_SETTING_NAMES) if (settings[name] !== undefined) row[name] = out.idOf(settings[name]);
      out.named.push(row);
    }
    return out;
  }

  private addMember(group: number, user: number) {
    this.memberships.push({ id: this.memberships.length + 1, usergroup: group, user_profile: user });
  }

  private addSubgroup(supergroup: number, subgroup: number) {
    this.subgroups.push({ id: this.subgroups.length + 1, supergroup, subgroup });
  }

  /** The group id Zulip's format stores for a setting's value (a new anonymous group when needed). */
  idOf(value: GroupSettingValue | null | undefined): number | null {
    if (value === null || value === undefined) return null;
    if (typeof value === 'number') return value;
    const id = this.nextId++;
    this.usergroups.push({ id, realm: this.realmId });
    for (const user of value.direct_members) this.addMember(id, user);
    for (const sub of value.direct_subgroups) this.addSubgroup(id, sub);
    return id;
  }

  tables(): Tables {
    return {
      zerver_usergroup: this.usergroups,
      zerver_namedusergroup: this.named,
      zerver_usergroupmembership: this.memberships,
      zerver_groupgroupmembership: this.subgroups,
    };
  }
}

/** Reads Zulip's group tables back: named groups become Parley groups, anonymous ones values. */
export class GroupImport {
  /** The export's named group id → this organization's group id. */
  readonly ids = new Map<number, number>();
  private readonly members = new Map<number, number[]>();
  private readonly subgroups = new Map<number, number[]>();
  private readonly named: Row[];

  constructor(
    tables: Tables,
    private readonly userIds: Map<number, number>,
  ) {
    this.named = (tables.zerver_namedusergroup ?? []) as Row[];
    for (const m of (tables.zerver_usergroupmembership ?? []) as Row[]) push(this.members, m.usergroup as number, m.user_profile as number);
    for (const s of (tables.zerver_groupgroupmembership ?? []) as Row[]) push(this.subgroups, s.supergroup as number, s.subgroup as number);
  }

  /**
   * System groups are matched by name (the organization has its own); the others are created. Then
   * memberships, then permission settings (which may name any group).
   */
  async load(knex: Knex, realmId: number): Promise<number> {
    const system = new Map<string, number>(
      (await knex('user_groups').where({ realm_id: realmId, is_system_group: true }).select('id', 'name')).map((g: Row) => [g.name as string, g.id as number]),
    );
    let created = 0;
    for (const g of this.named) {
      const zid = g.usergroup_ptr as number;
      if (g.is_system_group === true) {
        const id = system.get(String(g.name));
        if (id !== undefined) this.ids.set(zid, id);
        continue;
      }
      const creator = typeof g.creator === 'number' ? (this.userIds.get(g.creator) ?? null) : null;
      const inserted = await knex('user_groups')
        .insert({
          realm_id: realmId,
          name: String(g.name),
          description: String(g.description ?? ''),
          is_system_group: false,
          deactivated: g.deactivated === true,
          creator_id: creator,
          date_created: typeof g.date_created === 'number' ? new Date(g.date_created * 1000) : new Date(),
          settings: JSON.stringify({}),
        })
        .returning('id');
      this.ids.set(zid, insertedId(inserted));
      created += 1;
    }
    // System groups' members are as exported (full membership depends on when it was computed).
    const systemIds = this.named
      .filter((g) => g.is_system_group === true && this.ids.has(g.usergroup_ptr as number))
      .map((g) => this.ids.get(g.usergroup_ptr as number)!);
    if (systemIds.length > 0 && this.members.size > 0) await knex('user_group_members').whereIn('group_id', systemIds).delete();
    const memberRows: Row[] = [];
    const subgroupRows: Row[] = [];
    for (const [zid, id] of this.ids) {
      for (const user of this.members.get(zid) ?? []) if (this.userIds.has(user)) memberRows.push({ group_id: id, user_id: this.userIds.get(user) });
      for (const sub of this.subgroups.get(zid) ?? []) if (this.ids.has(sub)) subgroupRows.push({ supergroup_id: id, subgroup_id: this.ids.get(sub) });
    }
    for (let i = 0; i < memberRows.length; i += 1000)
      await knex('user_group_members')
        .insert(memberRows.slice(i, i + 1000))
        .onConflict(['group_id', 'user_id'])
        .ignore();
    if (subgroupRows.length > 0) await knex('user_group_subgroups').insert(subgroupRows).onConflict(['supergroup_id', 'subgroup_id']).ignore();
    for (const g of this.named) {
      const id = this.ids.get(g.usergroup_ptr as number);
      if (id === undefined) continue;
      const settings: Record<string, GroupSettingValue> = {};
      for (const name of GROUP_PERMISSION_SETTING_NAMES) {
        const value = this.valueOf(g[name]);
        if (value !== undefined) settings[name] = value;
      }
      if (Object.keys(settings).length === 0) continue;
      const current = await knex('user_groups').where({ id }).first('settings');
      const merged = { ...(typeof current.settings === 'string' ? JSON.parse(current.settings) : (current.settings ?? {})), ...settings };
      await knex('user_groups')
        .where({ id })
        .update({ settings: JSON.stringify(merged) });
    }
    return created;
  }

  /** A setting's value from the group id the export stores; undefined when it names no known group. */
  valueOf(zid: unknown): GroupSettingValue | undefined {
    if (typeof zid !== 'number') return undefined;
    const named = this.ids.get(zid);
    if (named !== undefined) return named;
    if (this.named.some((g) => g.usergroup_ptr === zid)) return undefined;
    const direct_members = (this.members.get(zid) ?? [])
      .map((u) => this.userIds.get(u))
      .filter((u): u is number => u !== undefined)
      .sort((a, b) => a - b);
    const direct_subgroups = (this.subgroups.get(zid) ?? [])
      .map((g) => this.ids.get(g))
      .filter((g): g is number => g !== undefined)
      .sort((a, b) => a - b);
    return { direct_members: [...new Set(direct_members)], direct_subgroups: [...new Set(direct_subgroups)] };
  }
}

function push(map: Map<number, number[]>, key: number, value: number) {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
