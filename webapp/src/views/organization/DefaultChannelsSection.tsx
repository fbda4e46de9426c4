import { useState } from 'react';
import { AddDefaultChannelMutation, AdminChannelsQuery, RemoveDefaultChannelMutation } from '../../api/operations/organization';
import { mutate, useAction, useFetched } from './admin-api';
import { Status } from './Status';

/** The channels new users join. */
export function DefaultChannelsSection({ editable }: { editable: boolean }) {
  const { data, error, reload } = useFetched(AdminChannelsQuery, {});
  const [adding, setAdding] = useState(0);
  const action = useAction();
  const defaults = new Set(data?.defaultChannelIds ?? []);
  const channels = (data?.channels ?? []).filter((c) => !c.isArchived).sort((a, b) => a.name.localeCompare(b.name));
  const change = async (add: boolean, channelId: number) => {
    const done = await action.run<unknown>(() =>
      add ? mutate(AddDefaultChannelMutation, { channelId }) : mutate(RemoveDefaultChannelMutation, { channelId }),
    );
    if (done) {
      setAdding(0);
      void reload();
    }
  };
  return (
    <>
      <Status error={error} />
      {editable ? (
        <form
          className="org-row"
          onSubmit={(e) => {
            e.preventDefault();
            if (adding) void change(true, adding);
          }}
        >
          <select aria-label="Channel to add" value={adding} onChange={(e) => setAdding(Number(e.target.value))}>
            <option value={0}>Choose a channel…</option>
            {channels
              .filter((c) => !defaults.has(c.streamId))
              .map((c) => (
                <option key={c.id} value={c.streamId}>
                  #{c.name}
                </option>
              ))}
          </select>
          <button type="submit" disabled={!adding || action.busy}>
            Add default channel
          </button>
        </form>
      ) : null}
      <Status error={action.error} done={action.done} />
      <ul className="org-list">
        {channels
          .filter((c) => defaults.has(c.streamId))
          .map((c) => (
            <li key={c.id}>
              <span>#{c.name}</span>
              {editable ? (
                <button
                  type="button"
                  aria-label={`Remove #${c.name} from the default channels`}
                  disabled={action.busy}
                  onClick={() => void change(false, c.streamId)}
                >
                  Remove
                </button>
              ) : null}
            </li>
          ))}
      </ul>
      {defaults.size === 0 && data ? <p className="empty">No default channels.</p> : null}
    </>
  );
}
