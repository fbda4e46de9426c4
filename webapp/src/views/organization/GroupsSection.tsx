import { useState } from 'react';
import type { ResultOf } from '../../api/graphql';
import { CreateUserGroupMutation, UserGroupsQuery } from '../../api/operations/organization';
import { useApp } from '../../state/store';
import { mutate, useAction, useFetched, useReloadOn } from './admin-api';
import { GroupEditDialog } from './GroupEditDialog';
import { Status } from './Status';

export type AdminGroup = ResultOf<typeof UserGroupsQuery>['userGroups'][number];

/** User groups: creating them, and each one's members, subgroups, permissions and deactivation. */
export function GroupsSection({ canCreate }: { canCreate: boolean }) {
  const { data, error, reload } = useFetched(UserGroupsQuery, {});
  const users = useApp((s) => s.users);
  const [open, setOpen] = useState<number | null>(null);
  // Changes made elsewhere arrive as user_group events: the list is asked again.
  useReloadOn(
    useApp((s) => s.userGroups),
    reload,
  );
  const groups = (data?.userGroups ?? [])
    .filter((g) => !g.isSystemGroup)
    .sort((a, b) => Number(a.deactivated) - Number(b.deactivated) || a.name.localeCompare(b.name));
  const editing = groups.find((g) => Number(g.id) === open);
  return (
    <>
      {canCreate ? <CreateGroupForm onCreated={() => void reload()} /> : null}
      <h3>User groups</h3>
      <Status error={error} />
      <table className="org-table">
        <thead>
          <tr>
            <th scope="col">Group</th>
            <th scope="col">Description</th>
            <th scope="col">Members</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {groups.map((g) => (
            <tr key={g.id} data-group-id={g.id}>
              <td>
                {g.name}
                {g.deactivated ? <span className="soft"> (deactivated)</span> : null}
              </td>
              <td>{g.description}</td>
              <td>{g.memberIds.map((id) => users.get(id)?.full_name ?? id).join(', ')}</td>
              <td>
                <button type="button" aria-label={`Manage ${g.name}`} onClick={() => setOpen(Number(g.id))}>
                  Manage
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {data && groups.length === 0 ? <p className="empty">No user groups yet.</p> : null}
      {editing ? <GroupEditDialog group={editing} groups={data?.userGroups ?? []} onChanged={() => void reload()} onClose={() => setOpen(null)} /> : null}
    </>
  );
}

function CreateGroupForm({ onCreated }: { onCreated: () => void }) {
  const me = useApp((s) => s.me);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const action = useAction();
  return (
    <form
      className="org-form"
      aria-label="Create a user group"
      onSubmit={async (e) => {
        e.preventDefault();
        const done = await action.run(() => mutate(CreateUserGroupMutation, { input: { name, description, members: [me] } }), 'Group created');
        if (done) {
          setName('');
          setDescription('');
          onCreated();
        }
      }}
    >
      <h3>Create a user group</h3>
      <label htmlFor="new-group-name">Group name</label>
      <input id="new-group-name" value={name} onChange={(e) => setName(e.target.value)} />
      <label htmlFor="new-group-description">Description</label>
      <input id="new-group-description" value={description} onChange={(e) => setDescription(e.target.value)} />
      <button type="submit" className="primary" disabled={action.busy || name.trim() === ''}>
        Create group
      </button>
      <Status error={action.error} done={action.done} />
    </form>
  );
}
