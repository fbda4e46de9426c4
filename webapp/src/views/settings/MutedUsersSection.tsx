import { UnmuteUserMutation } from '../../api/operations/settings';
import { setApp, useApp } from '../../state/store';
import { SaveStatus, useSaving } from './controls';
import { run } from './save';

/** #settings/muted-users: the people whose messages are hidden, with a way back. */
export function MutedUsersSection() {
  const muted = useApp((s) => s.mutedUsers);
  const users = useApp((s) => s.users);
  const [state, save] = useSaving();
  const unmute = (userId: number) =>
    void save(async () => {
      const outcome = await run(UnmuteUserMutation, { userId });
      if (outcome.error !== null) return outcome.error;
      setApp({ mutedUsers: new Set(outcome.data.unmuteUser.map((m) => Number(m.id))) });
      return null;
    });
  if (muted.size === 0) return <p className="empty">You have not muted anyone.</p>;
  return (
    <>
      <SaveStatus state={state} />
      <ul className="settings-list" aria-label="Muted users">
        {[...muted].map((id) => {
          const name = users.get(id)?.full_name ?? `User ${id}`;
          return (
            <li key={id}>
              <span>{name}</span>
              <button type="button" onClick={() => unmute(id)}>
                Unmute<span className="visually-hidden"> {name}</span>
              </button>
            </li>
          );
        })}
      </ul>
    </>
  );
}
