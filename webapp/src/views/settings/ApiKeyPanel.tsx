import { type FormEvent, useState } from 'react';
import { FetchApiKeyMutation, RegenerateApiKeyMutation } from '../../api/operations/settings';
import { useApp } from '../../state/store';
import { SaveStatus, useSaving } from './controls';
import { run } from './save';
import { copyText, downloadZuliprc } from './zuliprc';

/** A key with copy and download; `onRegenerate` replaces it. */
export function KeyDisplay({ email, apiKey, filename, onRegenerate }: { email: string; apiKey: string; filename?: string; onRegenerate: () => void }) {
  const [copied, setCopied] = useState<string>('');
  return (
    <div className="api-key">
      <p>
        <span className="soft">Email:</span> <code data-testid="api-key-email">{email}</code>
      </p>
      <p>
        <span className="soft">API key:</span> <code data-testid="api-key">{apiKey}</code>
      </p>
      <div className="setting-actions">
        <button type="button" onClick={() => void copyText(apiKey).then((ok) => setCopied(ok ? 'Copied' : 'The browser did not allow copying.'))}>
          Copy API key
        </button>
        <button type="button" onClick={() => downloadZuliprc(email, apiKey, filename)}>
          Download zuliprc
        </button>
        <button type="button" onClick={onRegenerate}>
          Generate new API key
        </button>
        <span role="status">{copied}</span>
      </div>
    </div>
  );
}

/** The user's API key: shown once the password is given again (a new key is issued each time). */
export function ApiKeyPanel() {
  const username = useApp((s) => (s.register.delivery_email as string | undefined) ?? s.users.get(s.me)?.email ?? '');
  const [password, setPassword] = useState('');
  const [key, setKey] = useState<{ email: string; apiKey: string } | null>(null);
  const [state, save] = useSaving();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void save(async () => {
      const outcome = await run(FetchApiKeyMutation, { username, password });
      if (outcome.error !== null) return outcome.error;
      setKey({ email: outcome.data.fetchApiKey.email, apiKey: outcome.data.fetchApiKey.apiKey });
      setPassword('');
      return null;
    });
  };
  const regenerate = () =>
    void save(async () => {
      const outcome = await run(RegenerateApiKeyMutation, {});
      if (outcome.error !== null) return outcome.error;
      setKey((k) => ({ email: k?.email ?? username, apiKey: outcome.data.regenerateApiKey }));
      return null;
    });
  if (key)
    return (
      <>
        <KeyDisplay email={key.email} apiKey={key.apiKey} onRegenerate={regenerate} />
        <SaveStatus state={state} />
      </>
    );
  return (
    <form className="setting-row" onSubmit={submit}>
      <p className="setting-wide soft">Your API key lets programs act as you. Enter your password to see it.</p>
      <label htmlFor="settings-api-password">Password</label>
      <input
        id="settings-api-password"
        type="password"
        autoComplete="current-password"
        value={password}
        required
        onChange={(e) => setPassword(e.target.value)}
      />
      <button type="submit" disabled={!password}>
        Show API key
      </button>
      <SaveStatus state={state} />
    </form>
  );
}
