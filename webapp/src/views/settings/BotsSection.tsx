import { type FormEvent, useCallback, useEffect, useState } from 'react';
import type { ResultOf } from '../../api/graphql';
import { graphQLClient } from '../../api/instance';
import { BotsQuery, CreateBotMutation, DeactivateBotMutation, RegenerateBotApiKeyMutation } from '../../api/operations/settings';
import { useApp } from '../../state/store';
import { KeyDisplay } from './ApiKeyPanel';
import { SaveStatus, SettingsGroup, useSaving } from './controls';
import { errorText, run } from './save';

type Bot = ResultOf<typeof BotsQuery>['bots'][number];
const TYPES: Record<number, string> = { 1: 'Generic', 2: 'Incoming webhook', 3: 'Outgoing webhook' };

function CreateBotForm({ onCreated }: { onCreated: (key: { botId: number; email: string; apiKey: string }) => void }) {
  const [botType, setBotType] = useState(1);
  const [fullName, setFullName] = useState('');
  const [shortName, setShortName] = useState('');
  const [payloadUrl, setPayloadUrl] = useState('');
  const [state, save] = useSaving();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void save(async () => {
      const input = { botType, fullName: fullName.trim(), shortName: shortName.trim(), ...(botType === 3 ? { payloadUrl: payloadUrl.trim() } : {}) };
      const outcome = await run(CreateBotMutation, { input });
      if (outcome.error !== null) return outcome.error;
      const { bot, apiKey } = outcome.data.createBot;
      onCreated({ botId: bot.userId, email: bot.email, apiKey });
      setFullName('');
      setShortName('');
      setPayloadUrl('');
      return null;
    });
  };
  return (
    <form className="setting-row stacked bot-form" onSubmit={submit}>
      <label htmlFor="bot-type">Bot type</label>
      <select id="bot-type" value={botType} onChange={(e) => setBotType(Number(e.target.value))}>
        {Object.entries(TYPES).map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
      <label htmlFor="bot-full-name">Name</label>
      <input id="bot-full-name" value={fullName} required onChange={(e) => setFullName(e.target.value)} />
      <label htmlFor="bot-short-name">Bot email (the part before -bot@)</label>
      <input id="bot-short-name" value={shortName} required onChange={(e) => setShortName(e.target.value)} />
      {botType === 3 ? (
        <>
          <label htmlFor="bot-payload-url">Endpoint URL</label>
          <input id="bot-payload-url" type="url" value={payloadUrl} required onChange={(e) => setPayloadUrl(e.target.value)} />
        </>
      ) : null}
      <button type="submit">Create bot</button>
      <SaveStatus state={state} />
    </form>
  );
}

/** #settings/your-bots: the user's bots, new ones, their keys and zuliprc files. */
export function BotsSection() {
  const me = useApp((s) => s.me);
  const [bots, setBots] = useState<Bot[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [shown, setShown] = useState<{ botId: number; email: string; apiKey: string } | null>(null);
  const [state, save] = useSaving();
  const load = useCallback(async () => {
    const result = await graphQLClient().query(BotsQuery, {}, { requestPolicy: 'network-only' }).toPromise();
    if (result.error) setLoadError(errorText(result.error));
    else setBots(result.data?.bots ?? []);
  }, []);
  useEffect(() => void load(), [load]);

  const newKey = (botId: number) =>
    void save(async () => {
      const outcome = await run(RegenerateBotApiKeyMutation, { botId });
      if (outcome.error !== null) return outcome.error;
      setShown({ botId, email: outcome.data.regenerateBotApiKey.bot.email, apiKey: outcome.data.regenerateBotApiKey.apiKey });
      return null;
    });
  const deactivate = (botId: number) =>
    void save(async () => {
      const outcome = await run(DeactivateBotMutation, { botId });
      if (outcome.error === null) await load();
      return outcome.error;
    });
  const mine = (bots ?? []).filter((b) => b.ownerId === me && b.isActive);
  return (
    <>
      <SettingsGroup title="Add a new bot">
        <CreateBotForm
          onCreated={(key) => {
            setShown(key);
            void load();
          }}
        />
      </SettingsGroup>
      {shown ? (
        <div className="bot-key" aria-live="polite">
          <h3>Key of {shown.email}</h3>
          <KeyDisplay email={shown.email} apiKey={shown.apiKey} filename={`zuliprc-${shown.email.split('@')[0]}`} onRegenerate={() => newKey(shown.botId)} />
        </div>
      ) : null}
      <SaveStatus state={state} />
      <h3>Your bots</h3>
      {loadError ? <p className="setting-error">{loadError}</p> : null}
      {bots === null ? <p className="soft">Loading…</p> : null}
      {bots !== null && mine.length === 0 ? <p className="empty">You have no bots.</p> : null}
      <ul className="settings-list" aria-label="Your bots">
        {mine.map((b) => (
          <li key={b.userId}>
            <div>
              <strong>{b.fullName}</strong> <span className="soft">({TYPES[b.botType ?? 1] ?? 'Bot'})</span>
              <br />
              <span className="soft">{b.email}</span>
            </div>
            <div className="setting-actions">
              <button type="button" onClick={() => newKey(b.userId)}>
                New API key<span className="visually-hidden"> for {b.fullName}</span>
              </button>
              <button type="button" onClick={() => deactivate(b.userId)}>
                Deactivate<span className="visually-hidden"> {b.fullName}</span>
              </button>
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}
