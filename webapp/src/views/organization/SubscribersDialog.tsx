import { useState } from 'react';
import { ChannelSubscribersQuery, SubscribeUsersMutation, UnsubscribeUsersMutation } from '../../api/operations/organization';
import { useApp } from '../../state/store';
import { mutate, useAction, useFetched } from './admin-api';
import type { AdminChannel } from './ChannelsSection';
import { OrgDialog } from './OrgDialog';
import { Status } from './Status';

/** Who is subscribed to a channel; subscribing and unsubscribing others (as the server allows). */
export function SubscribersDialog({ channel, onClose }: { channel: AdminChannel; onClose: () => void }) {
  const users = useApp((s) => s.users);
  const subscribers = useFetched(ChannelSubscribersQuery, { id: channel.streamId });
  const [adding, setAdding] = useState(0);
  const action = useAction();
  const ids = subscribers.data?.channelSubscribers ?? [];
  const candidates = [...users.values()].filter((u) => u.is_active && !ids.includes(u.user_id)).sort((a, b) => a.full_name.localeCompare(b.full_name));
  const change = async (add: boolean, userId: number) => {
    const done = await action.run<unknown>(() =>
      add
        ? mutate(SubscribeUsersMutation, { channel: channel.name, userIds: [userId] })
        : mutate(UnsubscribeUsersMutation, { channel: channel.name, userIds: [userId] }),
    );
    if (done) {
      setAdding(0);
      void subscribers.reload();
    }
  };
  return (
    <OrgDialog title={`Subscribers of #${channel.name}`} onClose={onClose}>
      <Status error={subscribers.error} />
      <form
        className="org-row"
        onSubmit={(e) => {
          e.preventDefault();
          if (adding) void change(true, adding);
        }}
      >
        <select aria-label="User to subscribe" value={adding} onChange={(e) => setAdding(Number(e.target.value))}>
          <option value={0}>Choose a user…</option>
          {candidates.map((u) => (
            <option key={u.user_id} value={u.user_id}>
              {u.full_name}
            </option>
          ))}
        </select>
        <button type="submit" disabled={!adding || action.busy}>
          Subscribe
        </button>
      </form>
      <Status error={action.error} done={action.done} />
      <ul className="org-list">
        {ids.map((id) => (
          <li key={id}>
            <span>{users.get(id)?.full_name ?? `User ${id}`}</span>
            <button type="button" aria-label={`Unsubscribe ${users.get(id)?.full_name ?? id}`} disabled={action.busy} onClick={() => void change(false, id)}>
              Unsubscribe
            </button>
          </li>
        ))}
      </ul>
    </OrgDialog>
  );
}
