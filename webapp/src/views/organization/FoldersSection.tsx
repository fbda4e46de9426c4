import { useState } from 'react';
import { AdminChannelsQuery, CreateChannelFolderMutation, ReorderChannelFoldersMutation, UpdateChannelFolderMutation } from '../../api/operations/organization';
import { mutate, useAction, useFetched } from './admin-api';
import type { AdminData } from './ChannelsSection';
import { Status } from './Status';

type Folder = AdminData['channelFolders'][number];

/** Channel folders: create, rename, reorder, archive. */
export function FoldersSection({ editable }: { editable: boolean }) {
  const { data, error, reload } = useFetched(AdminChannelsQuery, {});
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const action = useAction();
  const folders = [...(data?.channelFolders ?? [])].sort((a, b) => a.order - b.order);
  const refresh = () => void reload();
  const move = async (index: number, by: number) => {
    const order = folders.map((f) => Number(f.id));
    const [moved] = order.splice(index, 1);
    order.splice(index + by, 0, moved);
    if (await action.run(() => mutate(ReorderChannelFoldersMutation, { order }), null)) refresh();
  };
  return (
    <>
      {editable ? (
        <form
          className="org-form"
          aria-label="Create a channel folder"
          onSubmit={async (e) => {
            e.preventDefault();
            if (await action.run(() => mutate(CreateChannelFolderMutation, { name, description }), 'Folder created')) {
              setName('');
              setDescription('');
              refresh();
            }
          }}
        >
          <label htmlFor="new-folder-name">Folder name</label>
          <input id="new-folder-name" value={name} onChange={(e) => setName(e.target.value)} />
          <label htmlFor="new-folder-description">Description</label>
          <input id="new-folder-description" value={description} onChange={(e) => setDescription(e.target.value)} />
          <button type="submit" className="primary" disabled={action.busy || name.trim() === ''}>
            Create folder
          </button>
        </form>
      ) : null}
      <Status error={error ?? action.error} done={action.done} />
      <ul className="org-list">
        {folders.map((f, i) => (
          <FolderRow
            key={f.id}
            folder={f}
            editable={editable}
            first={i === 0}
            last={i === folders.length - 1}
            onMove={(by) => void move(i, by)}
            onChanged={refresh}
          />
        ))}
      </ul>
      {data && folders.length === 0 ? <p className="empty">No channel folders.</p> : null}
    </>
  );
}

function FolderRow(props: { folder: Folder; editable: boolean; first: boolean; last: boolean; onMove: (by: number) => void; onChanged: () => void }) {
  const { folder, editable } = props;
  const [name, setName] = useState(folder.name);
  const action = useAction();
  const id = Number(folder.id);
  const update = async (change: { name?: string; isArchived?: boolean }) => {
    if (await action.run(() => mutate(UpdateChannelFolderMutation, { id, ...change }))) props.onChanged();
  };
  return (
    <li>
      {editable ? <input aria-label={`Name of folder ${folder.name}`} value={name} onChange={(e) => setName(e.target.value)} /> : <span>{folder.name}</span>}
      {folder.isArchived ? <span className="soft">(archived)</span> : null}
      {editable ? (
        <span className="org-actions">
          <button type="button" disabled={name === folder.name || action.busy} onClick={() => void update({ name })}>
            Rename
          </button>
          <button type="button" aria-label={`Move ${folder.name} up`} disabled={props.first} onClick={() => props.onMove(-1)}>
            ↑
          </button>
          <button type="button" aria-label={`Move ${folder.name} down`} disabled={props.last} onClick={() => props.onMove(1)}>
            ↓
          </button>
          <button type="button" onClick={() => void update({ isArchived: !folder.isArchived })}>
            {folder.isArchived ? 'Unarchive' : 'Archive'}
          </button>
        </span>
      ) : null}
      <Status error={action.error} done={action.done} />
    </li>
  );
}
