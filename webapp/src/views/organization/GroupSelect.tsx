import { getApp, useApp } from '../../state/store';
import type { SettingKind } from './realm-settings';
import { SYSTEM_GROUP_LABELS } from './realm-settings';

type GroupKind = Extract<SettingKind, { type: 'group' }>;

/** A group-setting value in words: a named group, or a collection of users and groups. */
export function groupValueLabel(value: unknown): string {
  const groups = getApp().userGroups;
  if (typeof value === 'number') {
    const g = groups.get(value);
    return g ? (SYSTEM_GROUP_LABELS[g.name] ?? g.name) : `Group ${value}`;
  }
  if (value && typeof value === 'object') {
    const v = value as { direct_members?: number[]; direct_subgroups?: number[] };
    const users = v.direct_members?.length ?? 0;
    const subgroups = v.direct_subgroups?.length ?? 0;
    return `${users} user${users === 1 ? '' : 's'} and ${subgroups} group${subgroups === 1 ? '' : 's'}`;
  }
  return 'Unknown';
}

/** Whom a permission goes to: one of the role groups or a user group (Zulip's group-setting picker, one group). */
export function GroupSelect(props: {
  id: string;
  value: unknown;
  kind: GroupKind;
  disabled: boolean;
  describedBy?: string;
  /** Shown while no named group is chosen. */
  placeholder?: string;
  onChange: (groupId: number) => void;
}) {
  const groups = useApp((s) => s.userGroups);
  const { kind } = props;
  const options = [...groups.values()]
    .filter((g) => !g.deactivated)
    .filter((g) => {
      if (kind.systemOnly) return kind.systemOnly.includes(g.name);
      if (!g.is_system_group) return true;
      if (g.name === 'role:internet') return false;
      if (g.name === 'role:everyone') return kind.allowEveryone;
      if (g.name === 'role:nobody') return kind.allowNobody;
      return true;
    })
    .sort((a, b) => Number(b.is_system_group) - Number(a.is_system_group) || a.name.localeCompare(b.name));
  const current = typeof props.value === 'number' ? props.value : -1;
  return (
    <select
      id={props.id}
      value={current}
      disabled={props.disabled}
      aria-describedby={props.describedBy}
      onChange={(e) => props.onChange(Number(e.target.value))}
    >
      {current === -1 ? (
        <option value={-1} disabled>
          {props.placeholder ?? groupValueLabel(props.value)}
        </option>
      ) : null}
      {options.map((g) => (
        <option key={g.id} value={g.id}>
          {g.is_system_group ? (SYSTEM_GROUP_LABELS[g.name] ?? g.name) : g.name}
        </option>
      ))}
    </select>
  );
}
