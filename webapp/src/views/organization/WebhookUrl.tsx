import { useState } from 'react';
import { RegenerateBotKeyMutation } from '../../api/operations/organization';
import { useApp } from '../../state/store';
import { ConfirmDialog } from '../layout/ConfirmDialog';
import { mutate, useAction } from './admin-api';
import { CopyField } from './CopyField';
import { Status } from './Status';

/** The incoming-webhook integrations Parley has (src/core/webhooks), by their URL name. */
export const INTEGRATIONS: { name: string; label: string }[] = [
  { name: 'github', label: 'GitHub' },
  { name: 'gitlab', label: 'GitLab' },
  { name: 'grafana', label: 'Grafana' },
  { name: 'json', label: 'JSON formatter' },
  { name: 'slack_incoming', label: 'Slack-compatible incoming webhook' },
];

type BotRow = { userId: number; fullName: string };

/**
 * A bot's incoming-webhook URL for an integration. The API never hands out a bot's current key, so the
 * URL holds a placeholder until a new key is generated here (which stops the old one).
 */
export function WebhookUrl({ bots }: { bots: BotRow[] }) {
  const channels = useApp((s) => s.channels);
  const [botId, setBotId] = useState(0);
  const [integration, setIntegration] = useState('github');
  const [channel, setChannel] = useState('');
  const [topic, setTopic] = useState('');
  const [keys, setKeys] = useState<Map<number, string>>(new Map());
  const [confirm, setConfirm] = useState(false);
  const action = useAction();
  const bot = bots.find((b) => b.userId === botId) ?? bots[0];
  const url = new URL(`/api/v1/external/${integration}`, window.location.origin);
  url.searchParams.set('api_key', (bot && keys.get(bot.userId)) ?? 'BOT_API_KEY');
  if (channel) url.searchParams.set('stream', channel);
  if (topic) url.searchParams.set('topic', topic);
  return (
    <section className="org-form" aria-labelledby="webhook-heading">
      <h3 id="webhook-heading">Incoming webhook URL</h3>
      <label htmlFor="webhook-integration">Integration</label>
      <select id="webhook-integration" value={integration} onChange={(e) => setIntegration(e.target.value)}>
        {INTEGRATIONS.map((i) => (
          <option key={i.name} value={i.name}>
            {i.label}
          </option>
        ))}
      </select>
      <label htmlFor="webhook-bot">Bot</label>
      <select id="webhook-bot" value={bot?.userId ?? 0} onChange={(e) => setBotId(Number(e.target.value))}>
        {bots.length === 0 ? <option value={0}>No bots</option> : null}
        {bots.map((b) => (
          <option key={b.userId} value={b.userId}>
            {b.fullName}
          </option>
        ))}
      </select>
      <label htmlFor="webhook-channel">Channel</label>
      <select id="webhook-channel" value={channel} onChange={(e) => setChannel(e.target.value)}>
        <option value="">Direct message to the bot's owner</option>
        {[...channels.values()]
          .filter((c) => !c.is_archived)
          .sort((a, b) => a.name.localeCompare(b.name))
          .map((c) => (
            <option key={c.stream_id} value={c.name}>
              #{c.name}
            </option>
          ))}
      </select>
      <label htmlFor="webhook-topic">Topic (optional)</label>
      <input id="webhook-topic" value={topic} onChange={(e) => setTopic(e.target.value)} />
      {bots.length > 0 ? (
        <CopyField label="Webhook URL" value={url.toString()} />
      ) : (
        <p className="soft">
          An incoming webhook posts as a bot: <a href="#settings/your-bots">add a bot</a> first.
        </p>
      )}
      {bot && !keys.has(bot.userId) ? (
        <p className="soft">
          BOT_API_KEY stands for the bot's API key.{' '}
          <button type="button" className="link-button" onClick={() => setConfirm(true)}>
            Generate a new API key for {bot.fullName}
          </button>
        </p>
      ) : null}
      <Status error={action.error} />
      {confirm && bot ? (
        <ConfirmDialog
          title={`New API key for ${bot.fullName}?`}
          message="The bot's current API key stops working: integrations using it must be given the new URL."
          confirmLabel="Generate"
          onCancel={() => setConfirm(false)}
          onConfirm={async () => {
            setConfirm(false);
            const data = await action.run(() => mutate(RegenerateBotKeyMutation, { botId: bot.userId }), null);
            if (data) setKeys(new Map(keys).set(bot.userId, data.regenerateBotApiKey.apiKey));
          }}
        />
      ) : null}
    </section>
  );
}
