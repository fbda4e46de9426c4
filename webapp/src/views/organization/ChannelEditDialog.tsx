import { useState } from 'react';
import { ArchiveChannelMutation, UpdateChannelMutation } from '../../api/operations/organization';
import { ConfirmDialog } from '../layout/ConfirmDialog';
import { mutate, useAction } from './admin-api';
import { type AdminChannel, type AdminData, privacyOf } from './ChannelsSection';
import { OrgDialog } from './OrgDialog';
import { Status } from './Status';

/** A channel's name, description, privacy and folder; archiving it (or bringing it back). */
export function ChannelEditDialog(props: { channel: AdminChannel; folders: AdminData['channelFolders']; editable: boolean; onClose: () => void }) {
  const { channel, editable } = props;
  const [name, setName] = useState(channel.name);
  const [description, setDescription] = useState(channel.description);
  const [privacy, setPrivacy] = useState(privacyOf(channel));
  const [folder, setFolder] = useState(channel.folderId ?? -1);
  const [archiving, setArchiving] = useState(false);
  const action = useAction();
  const id = channel.streamId;
  const save = () => {
    const input: Record<string, unknown> = {};
    if (name !== channel.name) input.newName = name;
    if (description !== channel.description) input.description = description;
    if (privacy !== privacyOf(channel)) {
      input.isPrivate = privacy === 'private';
      input.isWebPublic = privacy === 'web-public';
    }
    if (folder !== (channel.folderId ?? -1)) input.folderId = folder === -1 ? null : folder;
    void action.run(() => mutate(UpdateChannelMutation, { id, input }));
  };
  return (
    <OrgDialog title={`#${channel.name}`} onClose={props.onClose}>
      <form
        className="org-form"
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
      >
        <label htmlFor="edit-channel-name">Channel name</label>
        <input id="edit-channel-name" value={name} disabled={!editable} onChange={(e) => setName(e.target.value)} />
        <label htmlFor="edit-channel-description">Description</label>
        <textarea id="edit-channel-description" rows={3} value={description} disabled={!editable} onChange={(e) => setDescription(e.target.value)} />
        <label htmlFor="edit-channel-privacy">Who can access the channel</label>
        <select id="edit-channel-privacy" value={privacy} disabled={!editable} onChange={(e) => setPrivacy(e.target.value)}>
          <option value="public">Public</option>
          <option value="private">Private</option>
          <option value="web-public">Web-public</option>
        </select>
        <label htmlFor="edit-channel-folder">Folder</label>
        <select id="edit-channel-folder" value={folder} disabled={!editable} onChange={(e) => setFolder(Number(e.target.value))}>
          <option value={-1}>None</option>
          {props.folders.map((f) => (
            <option key={f.id} value={Number(f.id)}>
              {f.name}
            </option>
          ))}
        </select>
        {editable ? (
          <div className="org-row">
            <button type="submit" className="primary" disabled={action.busy}>
              Save changes
            </button>
            {channel.isArchived ? (
              <button
                type="button"
                disabled={action.busy}
                onClick={() => void action.run(() => mutate(UpdateChannelMutation, { id, input: { isArchived: false } }), 'Unarchived')}
              >
                Unarchive channel
              </button>
            ) : (
              <button type="button" className="danger" disabled={action.busy} onClick={() => setArchiving(true)}>
                Archive channel
              </button>
            )}
          </div>
        ) : null}
        <Status error={action.error} done={action.done} />
      </form>
      {archiving ? (
        <ConfirmDialog
          title={`Archive #${channel.name}?`}
          message="Nobody will be able to send messages to it; its messages stay readable."
          confirmLabel="Archive"
          onCancel={() => setArchiving(false)}
          onConfirm={() => {
            setArchiving(false);
            void action.run(() => mutate(ArchiveChannelMutation, { id }), 'Archived');
          }}
        />
      ) : null}
    </OrgDialog>
  );
}
