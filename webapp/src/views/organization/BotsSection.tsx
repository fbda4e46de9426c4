import { useState } from 'react';
import { BotsQuery, DeactivateBotMutation } from '../../api/operations/organization';
import { useApp } from '../../state/store';
import { ConfirmDialog } from '../layout/ConfirmDialog';
import { mutate, useAction, useFetched } from './admin-api';
import { Status } from './Status';
import { WebhookUrl } from './WebhookUrl';

const BOT_TYPES: Record<number, string> = { 1: 'Generic', 2: 'Incoming webhook', 3: 'Outgoing webhook', 4: 'Embedded' };

/** Every bot the user administers (all of them for administrators), and their webhook URLs. */
export function BotsSection() {
  const { data, error, reload } = useFetched(BotsQuery, {});
  const users = useApp((s) => s.users);
  const [confirm, setConfirm] = useState<{ id: number; name: string } | null>(null);
  const action = useAction();
  const bots = [...(data?.bots ?? [])].sort((a, b) => Number(b.isActive) - Number(a.isActive) || a.fullName.localeCompare(b.fullName));
  return (
    <>
      <Status error={error ?? action.error} done={action.done} />
      <table className="org-table">
        <thead>
          <tr>
            <th scope="col">Bot</th>
            <th scope="col">Type</th>
            <th scope="col">Owner</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {bots.map((b) => (
            <tr key={b.id}>
              <td>
                {b.fullName}
                <br />
                <span className="soft">{b.email}</span>
              </td>
              <td>{BOT_TYPES[b.botType ?? 1] ?? b.botType}</td>
              <td>{b.ownerId ? (users.get(b.ownerId)?.full_name ?? '') : ''}</td>
              <td>
                {b.isActive ? (
                  <button
                    type="button"
                    className="danger"
                    aria-label={`Deactivate ${b.fullName}`}
                    onClick={() => setConfirm({ id: b.userId, name: b.fullName })}
                  >
                    Deactivate
                  </button>
                ) : (
                  <span className="soft">Deactivated</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {data && bots.length === 0 ? <p className="empty">No bots.</p> : null}
      {confirm ? (
        <ConfirmDialog
          title={`Deactivate ${confirm.name}?`}
          message="The bot will stop working at once; it can be reactivated from the deactivated users."
          confirmLabel="Deactivate"
          onCancel={() => setConfirm(null)}
          onConfirm={async () => {
            const botId = confirm.id;
            setConfirm(null);
            if (await action.run(() => mutate(DeactivateBotMutation, { botId }), 'Deactivated')) void reload();
          }}
        />
      ) : null}
      <WebhookUrl bots={bots.filter((b) => b.isActive)} />
    </>
  );
}
