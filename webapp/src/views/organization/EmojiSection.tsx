import { useState } from 'react';
import { ContentQuery, DeactivateEmojiMutation } from '../../api/operations/organization';
import { useApp } from '../../state/store';
import { mutate, useAction, useFetched } from './admin-api';
import { uploadEmoji } from './emoji-upload';
import { Status } from './Status';

/** Custom emoji: adding one (an image upload) and deactivating. */
export function EmojiSection({ isAdmin }: { isAdmin: boolean }) {
  const { data, error, reload } = useFetched(ContentQuery, {});
  const me = useApp((s) => s.me);
  const users = useApp((s) => s.users);
  const [name, setName] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const action = useAction();
  const emoji = (data?.realmEmoji ?? []).filter((e) => !e.deactivated).sort((a, b) => a.name.localeCompare(b.name));
  return (
    <>
      <form
        className="org-form"
        aria-label="Add a custom emoji"
        onSubmit={async (e) => {
          e.preventDefault();
          if (!file) return;
          const form = e.currentTarget;
          setBusy(true);
          const refused = await uploadEmoji(name.trim(), file);
          setBusy(false);
          setUploadError(refused);
          if (refused) return;
          // The file input is the browser's own: emptied by resetting the form.
          form.reset();
          setName('');
          setFile(null);
          void reload();
        }}
      >
        <label htmlFor="emoji-name">Emoji name</label>
        <input id="emoji-name" value={name} onChange={(e) => setName(e.target.value)} />
        <label htmlFor="emoji-file">Image</label>
        <input id="emoji-file" type="file" accept="image/*" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        <button type="submit" className="primary" disabled={busy || !file || name.trim() === ''}>
          Add emoji
        </button>
        <Status error={uploadError} />
      </form>
      <Status error={error ?? action.error} done={action.done} />
      <table className="org-table">
        <thead>
          <tr>
            <th scope="col">Emoji</th>
            <th scope="col">Name</th>
            <th scope="col">Author</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {emoji.map((e) => (
            <tr key={e.id}>
              <td>
                <img className="org-emoji" src={e.sourceUrl} alt={`:${e.name}:`} />
              </td>
              <td>:{e.name}:</td>
              <td>{e.authorId ? (users.get(e.authorId)?.full_name ?? '') : ''}</td>
              <td>
                {isAdmin || e.authorId === me ? (
                  <button
                    type="button"
                    className="danger"
                    aria-label={`Deactivate :${e.name}:`}
                    onClick={async () => {
                      if (await action.run(() => mutate(DeactivateEmojiMutation, { name: e.name }), 'Deactivated')) void reload();
                    }}
                  >
                    Deactivate
                  </button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {data && emoji.length === 0 ? <p className="empty">No custom emoji.</p> : null}
    </>
  );
}
