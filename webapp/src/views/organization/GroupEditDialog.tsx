import { useState } from 'react';
import { DeactivateUserGroupMutation, UpdateUserGroupMembersMutation, UpdateUserGroupMutation } from '../../api/operations/organization';
import { useApp } from '../../state/store';
import { mutate, useAction } from './admin-api';
import type { AdminGroup } from './GroupsSection';
import { GroupSelect } from './GroupSelect';
import { OrgDialog } from './OrgDialog';
import { Status } from './Status';

const PERMISSIONS = [
  ['canManageGroup', 'Who can administer this group'],
  ['canMentionGroup', 'Who can mention this group'],
  ['canAddMembersGroup', 'Who can add members'],
  ['canRemoveMembersGroup', 'Who can remove members'],
  ['canJoinGroup', 'Who can join'],
  ['canLeaveGroup', 'Who can leave'],
] as const;

type Value = { groupId?: number | null; directMembers?: number[] | null; directSubgroups?: number[] | null };
const toInput = (v: Value) => (v.groupId != null ? { groupId: v.groupId } : { directMembers: v.directMembers ?? [], directSubgroups: v.directSubgroups ?? [] });
const toRegisterShape = (v: Value) => (v.groupId != null ? v.groupId : { direct_members: v.directMembers ?? [], direct_subgroups: v.directSubgroups ?? [] });

/** One group: name and description, members, subgroups, who may do what with it, deactivation. */
export function GroupEditDialog({
  group,
  groups,
  onChanged,
  onClose,
}: {
  group: AdminGroup;
  groups: AdminGroup[];
  onChanged: () => void;
  onClose: () => void;
}) {
  const users = useApp((s) => s.users);
  const [name, setName] = useState(group.name);
  const [description, setDescription] = useState(group.description);
  const [member, setMember] = useState(0);
  const [subgroup, setSubgroup] = useState(0);
  const action = useAction();
  const id = Number(group.id);
  const run = async (work: () => ReturnType<typeof mutate>) => {
    if (await action.run(work)) onChanged();
  };
  const members = (change: { add?: number[]; delete?: number[]; addSubgroups?: number[]; deleteSubgroups?: number[] }) =>
    void run(() => mutate(UpdateUserGroupMembersMutation, { id, ...change }));
  const candidates = [...users.values()].filter((u) => u.is_active && !group.memberIds.includes(u.user_id));
  const subgroupCandidates = groups.filter((g) => Number(g.id) !== id && !g.deactivated && !group.directSubgroupIds.includes(Number(g.id)));
  const groupName = (gid: number) => groups.find((g) => Number(g.id) === gid)?.name ?? `Group ${gid}`;
  return (
    <OrgDialog title={group.name} onClose={onClose}>
      <form
        className="org-form"
        onSubmit={(e) => {
          e.preventDefault();
          void run(() => mutate(UpdateUserGroupMutation, { id, input: { name: name === group.name ? null : name, description } }));
        }}
      >
        <label htmlFor="group-name">Name</label>
        <input id="group-name" value={name} onChange={(e) => setName(e.target.value)} />
        <label htmlFor="group-description">Description</label>
        <input id="group-description" value={description} onChange={(e) => setDescription(e.target.value)} />
        <button type="submit" className="primary" disabled={action.busy}>
          Save changes
        </button>
      </form>
      <Status error={action.error} done={action.done} />
      <h3>Members</h3>
      <ul className="org-list">
        {group.memberIds.map((uid) => (
          <li key={uid}>
            <span>{users.get(uid)?.full_name ?? uid}</span>
            <button type="button" aria-label={`Remove ${users.get(uid)?.full_name ?? uid} from the group`} onClick={() => members({ delete: [uid] })}>
              Remove
            </button>
          </li>
        ))}
        {group.directSubgroupIds.map((gid) => (
          <li key={`g${gid}`}>
            <span>Group: {groupName(gid)}</span>
            <button type="button" aria-label={`Remove the subgroup ${groupName(gid)}`} onClick={() => members({ deleteSubgroups: [gid] })}>
              Remove
            </button>
          </li>
        ))}
      </ul>
      <div className="org-row">
        <select aria-label="User to add" value={member} onChange={(e) => setMember(Number(e.target.value))}>
          <option value={0}>Add a user…</option>
          {candidates.map((u) => (
            <option key={u.user_id} value={u.user_id}>
              {u.full_name}
            </option>
          ))}
        </select>
        <button type="button" disabled={!member} onClick={() => members({ add: [member] })}>
          Add
        </button>
        <select aria-label="Group to add as a subgroup" value={subgroup} onChange={(e) => setSubgroup(Number(e.target.value))}>
          <option value={0}>Add a subgroup…</option>
          {subgroupCandidates.map((g) => (
            <option key={g.id} value={Number(g.id)}>
              {g.name}
            </option>
          ))}
        </select>
        <button type="button" disabled={!subgroup} onClick={() => members({ addSubgroups: [subgroup] })}>
          Add subgroup
        </button>
      </div>
      <h3>Permissions</h3>
      {PERMISSIONS.map(([key, label]) => (
        <div className="org-setting" key={key}>
          <label htmlFor={`group-${key}`}>{label}</label>
          <GroupSelect
            id={`group-${key}`}
            value={toRegisterShape(group[key])}
            kind={{ type: 'group', allowEveryone: true, allowNobody: true }}
            disabled={action.busy}
            onChange={(groupId) =>
              void run(() => mutate(UpdateUserGroupMutation, { id, input: { [key]: { newValue: { groupId }, oldValue: toInput(group[key]) } } }))
            }
          />
        </div>
      ))}
      <div className="org-row">
        {group.deactivated ? (
          <button type="button" onClick={() => void run(() => mutate(UpdateUserGroupMutation, { id, input: { deactivated: false } }))}>
            Reactivate group
          </button>
        ) : (
          <button type="button" className="danger" onClick={() => void run(() => mutate(DeactivateUserGroupMutation, { id }))}>
            Deactivate group
          </button>
        )}
      </div>
    </OrgDialog>
  );
}
