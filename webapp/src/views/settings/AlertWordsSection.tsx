import { type FormEvent, useState } from 'react';
import { AddAlertWordsMutation, RemoveAlertWordsMutation } from '../../api/operations/settings';
import { setApp, useApp } from '../../state/store';
import { SaveStatus, useSaving } from './controls';
import { run } from './save';

/** #settings/alert-words: words that notify like a mention. */
export function AlertWordsSection() {
  const words = useApp((s) => s.alertWords);
  const [word, setWord] = useState('');
  const [state, save] = useSaving();
  const add = (e: FormEvent) => {
    e.preventDefault();
    void save(async () => {
      const outcome = await run(AddAlertWordsMutation, { words: [word.trim()] });
      if (outcome.error !== null) return outcome.error;
      setApp({ alertWords: outcome.data.addAlertWords });
      setWord('');
      return null;
    });
  };
  const remove = (w: string) =>
    void save(async () => {
      const outcome = await run(RemoveAlertWordsMutation, { words: [w] });
      if (outcome.error !== null) return outcome.error;
      setApp({ alertWords: outcome.data.removeAlertWords });
      return null;
    });
  return (
    <>
      <p className="soft">You are notified of messages that contain these words, as if you were mentioned.</p>
      <form className="setting-row" onSubmit={add}>
        <label htmlFor="settings-alert-word">New alert word</label>
        <input id="settings-alert-word" value={word} onChange={(e) => setWord(e.target.value)} />
        <button type="submit" disabled={word.trim() === ''}>
          Add alert word
        </button>
        <SaveStatus state={state} />
      </form>
      {words.length === 0 ? (
        <p className="empty">No alert words yet.</p>
      ) : (
        <ul className="settings-list" aria-label="Alert words">
          {[...words].sort().map((w) => (
            <li key={w}>
              <span>{w}</span>
              <button type="button" onClick={() => remove(w)}>
                Remove<span className="visually-hidden"> {w}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
