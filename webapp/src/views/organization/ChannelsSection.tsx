import { useEffect, useState } from 'react';
import type { ResultOf } from '../../api/graphql';
import { AddDefaultChannelMutation, AdminChannelsQuery, CreateChannelMutation, RemoveDefaultChannelMutation } from '../../api/operations/organization';
import { useApp } from '../../state/store';
import { mutate, useAction, useFetched, useReloadOn } from './admin-api';
import { ChannelEditDialog } from './ChannelEditDialog';
import { GroupSelect } from './GroupSelect';
import { Status } from './Status';
import { SubscribersDialog } from './SubscribersDialog';

export type AdminData = ResultOf<typeof AdminChannelsQuery>;
export type AdminChannel = AdminData['channels'][number];

export const privacyOf = (c: { inviteOnly: boolean; isWebPublic: boolean }) => (c.isWebPublic ? 'web-public' : c.inviteOnly ? 'private' : 'public');

/** Every channel: creating one, editing, archiving, subscribers and default channels. */
export function ChannelsSection({ editable }: { editable: boolean }) {
  const { data, error, reload } = useFetched(AdminChannelsQuery, {});
  const [editing, setEditing] = useState<AdminChannel | null>(null);
  const [members, setMembers] = useState<AdminChannel | null>(null);
  const refresh = () => void reload();
  // Changes made elsewhere arrive as stream events: the list is asked again.
  useReloadOn(
    useApp((s) => s.channels),
    reload,
  );
  const channels = [...(data?.channels ?? [])].sort((a, b) => Number(a.isArchived) - Number(b.isArchived) || a.name.localeCompare(b.name));
  return (
    <>
      <CreateChannelForm folders={data?.channelFolders ?? []} onCreated={refresh} />
      <h3>Channels</h3>
      <Status error={error} />
      <table className="org-table">
        <thead>
          <tr>
            <th scope="col">Channel</th>
            <th scope="col">Privacy</th>
            <th scope="col">Subscribers</th>
            <th scope="col">Default</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {channels.map((c) => (
            <tr key={c.id} data-channel-row={c.streamId}>
              <td>
                #{c.name}
                {c.isArchived ? <span className="soft"> (archived)</span> : null}
              </td>
              <td>{privacyOf(c)}</td>
              <td>{c.subscriberCount}</td>
              <td>
                <DefaultToggle channel={c} isDefault={data?.defaultChannelIds.includes(c.streamId) ?? false} editable={editable} onChanged={refresh} />
              </td>
              <td className="org-actions">
                <button type="button" aria-label={`Edit #${c.name}`} onClick={() => setEditing(c)}>
                  {editable ? 'Edit' : 'Details'}
                </button>
                <button type="button" aria-label={`Subscribers of #${c.name}`} onClick={() => setMembers(c)}>
                  Subscribers
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {editing ? (
        <ChannelEditDialog
          channel={editing}
          folders={data?.channelFolders ?? []}
          editable={editable}
          onClose={() => {
            setEditing(null);
            refresh();
          }}
        />
      ) : null}
      {members ? (
        <SubscribersDialog
          channel={members}
          onClose={() => {
            setMembers(null);
            refresh();
          }}
        />
      ) : null}
    </>
  );
}

function DefaultToggle({ channel, isDefault, editable, onChanged }: { channel: AdminChannel; isDefault: boolean; editable: boolean; onChanged: () => void }) {
  const action = useAction();
  // Shown as asked at once; put back if the server refuses.
  const [shown, setShown] = useState(isDefault);
  useEffect(() => setShown(isDefault), [isDefault]);
  return (
    <>
      <input
        type="checkbox"
        aria-label={`#${channel.name} is a default channel`}
        checked={shown}
        disabled={!editable || action.busy || channel.isArchived}
        onChange={async (e) => {
          const channelId = channel.streamId;
          setShown(e.target.checked);
          const done = await action.run<unknown>(
            () => (e.target.checked ? mutate(AddDefaultChannelMutation, { channelId }) : mutate(RemoveDefaultChannelMutation, { channelId })),
            null,
          );
          if (done) onChanged();
          else setShown(isDefault);
        }}
      />
      <Status error={action.error} />
    </>
  );
}

function CreateChannelForm({ folders, onCreated }: { folders: AdminData['channelFolders']; onCreated: () => void }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [privacy, setPrivacy] = useState('public');
  const [folder, setFolder] = useState(-1);
  const [poster, setPoster] = useState<number | null>(null);
  const action = useAction();
  const create = async () => {
    const input = {
      channels: [{ name: name.trim(), description }],
      inviteOnly: privacy === 'private',
      isWebPublic: privacy === 'web-public',
      folderId: folder === -1 ? null : folder,
      permissions: poster === null ? null : { canSendMessageGroup: { groupId: poster } },
    };
    const data = await action.run(() => mutate(CreateChannelMutation, { input }), 'Channel created');
    if (!data) return;
    if (data.subscribe.unauthorized?.length) {
      action.setError(`Not allowed to create: ${data.subscribe.unauthorized.join(', ')}`);
      return;
    }
    setName('');
    setDescription('');
    onCreated();
  };
  return (
    <form
      className="org-form"
      aria-label="Create a channel"
      onSubmit={(e) => {
        e.preventDefault();
        void create();
      }}
    >
      <h3>Create a channel</h3>
      <label htmlFor="new-channel-name">Channel name</label>
      <input id="new-channel-name" value={name} maxLength={60} onChange={(e) => setName(e.target.value)} />
      <label htmlFor="new-channel-description">Description</label>
      <input id="new-channel-description" value={description} onChange={(e) => setDescription(e.target.value)} />
      <label htmlFor="new-channel-privacy">Who can access the channel</label>
      <select id="new-channel-privacy" value={privacy} onChange={(e) => setPrivacy(e.target.value)}>
        <option value="public">Public: members can join and see the history</option>
        <option value="private">Private: only subscribers</option>
        <option value="web-public">Web-public: anyone on the Internet can view</option>
      </select>
      <label htmlFor="new-channel-folder">Folder</label>
      <select id="new-channel-folder" value={folder} onChange={(e) => setFolder(Number(e.target.value))}>
        <option value={-1}>None</option>
        {folders
          .filter((f) => !f.isArchived)
          .map((f) => (
            <option key={f.id} value={Number(f.id)}>
              {f.name}
            </option>
          ))}
      </select>
      <label htmlFor="new-channel-poster">Who can post to the channel</label>
      <GroupSelect
        id="new-channel-poster"
        value={poster ?? undefined}
        placeholder="Everyone (the default)"
        kind={{ type: 'group', allowEveryone: true, allowNobody: true }}
        disabled={false}
        onChange={(id) => setPoster(id)}
      />
      <button type="submit" className="primary" disabled={action.busy || name.trim() === ''}>
        Create channel
      </button>
      <Status error={action.error} done={action.done} />
    </form>
  );
}
