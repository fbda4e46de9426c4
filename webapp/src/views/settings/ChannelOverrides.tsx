import { SubscriptionPropertiesMutation } from '../../api/operations/settings';
import { setApp, useApp } from '../../state/store';
import type { SubscriptionRecord } from '../../state/types';
import { SaveStatus, useSaving } from './controls';
import { camel, run } from './save';

type Property =
  | 'desktop_notifications'
  | 'audible_notifications'
  | 'push_notifications'
  | 'email_notifications'
  | 'wildcard_mentions_notify'
  | 'pin_to_top'
  | 'is_muted'
  | 'color';

/** Changes one property of a subscription; this tab takes it at once, the subscription event tells the others. */
async function setProperty(streamId: number, property: Property, value: boolean | string): Promise<string | null> {
  const outcome = await run(SubscriptionPropertiesMutation, { changes: [{ streamId, [camel(property)]: value }] });
  if (outcome.error !== null) return outcome.error;
  setApp((s) => {
    const known = s.subscriptions.get(streamId);
    return known ? { subscriptions: new Map(s.subscriptions).set(streamId, { ...known, [property]: value }) } : {};
  });
  return null;
}

/** Which global setting a channel's notification follows while it has no value of its own. */
const GLOBAL: Partial<Record<Property, string>> = {
  desktop_notifications: 'enable_stream_desktop_notifications',
  audible_notifications: 'enable_stream_audible_notifications',
  push_notifications: 'enable_stream_push_notifications',
  email_notifications: 'enable_stream_email_notifications',
  wildcard_mentions_notify: 'wildcard_mentions_notify',
};

export const NOTIFICATION_COLUMNS: [Property, string][] = [
  ['desktop_notifications', 'Desktop'],
  ['audible_notifications', 'Sound'],
  ['push_notifications', 'Mobile'],
  ['email_notifications', 'Email'],
  ['wildcard_mentions_notify', '@all mentions'],
];
export const DISPLAY_COLUMNS: [Property, string][] = [
  ['color', 'Colour'],
  ['pin_to_top', 'Pinned'],
  ['is_muted', 'Muted'],
];

function PropertyCell({ sub, property, label }: { sub: SubscriptionRecord; property: Property; label: string }) {
  const fallback = useApp((s) => (GLOBAL[property] ? s.settings[GLOBAL[property]] === true : false));
  const [state, save] = useSaving();
  const name = `${sub.name}: ${label}`;
  if (property === 'color')
    return (
      <td>
        <input type="color" aria-label={name} value={sub.color} onChange={(e) => void save(() => setProperty(sub.stream_id, 'color', e.target.value))} />
        {state.kind === 'error' ? <SaveStatus state={state} /> : null}
      </td>
    );
  const own = sub[property] as boolean | null | undefined;
  return (
    <td>
      <input
        type="checkbox"
        aria-label={name}
        data-property={property}
        checked={own ?? fallback}
        disabled={state.kind === 'saving'}
        onChange={(e) => void save(() => setProperty(sub.stream_id, property, e.target.checked))}
      />
      {state.kind === 'error' ? <SaveStatus state={state} /> : null}
    </td>
  );
}

/** The user's channels as a table of their own settings. */
export function ChannelTable({ columns, label }: { columns: [Property, string][]; label: string }) {
  const subscriptions = useApp((s) => s.subscriptions);
  const rows = [...subscriptions.values()].sort((a, b) => a.name.localeCompare(b.name));
  if (rows.length === 0) return <p className="empty">You are not subscribed to any channels.</p>;
  return (
    <div className="table-scroll">
      <table className="settings-table" aria-label={label}>
        <thead>
          <tr>
            <th scope="col">Channel</th>
            {columns.map(([p, l]) => (
              <th key={p} scope="col">
                {l}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((sub) => (
            <tr key={sub.stream_id} data-channel-row={sub.stream_id}>
              <th scope="row">
                <span className="channel-swatch" aria-hidden="true" style={{ background: sub.color }} />
                {sub.invite_only ? '🔒 ' : '# '}
                {sub.name}
              </th>
              {columns.map(([p, l]) => (
                <PropertyCell key={p} sub={sub} property={p} label={l} />
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Per-channel notification settings; a channel without its own value follows the settings above. */
export function ChannelOverrides() {
  return <ChannelTable columns={NOTIFICATION_COLUMNS} label="Notifications per channel" />;
}
