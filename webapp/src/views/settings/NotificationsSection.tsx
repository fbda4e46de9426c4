import { useApp } from '../../state/store';
import { ChannelOverrides } from './ChannelOverrides';
import { Choice, type Option, SaveStatus, SettingsGroup, Toggle, useSaving } from './controls';
import { saveSettings } from './save';

/** One checkbox of the table: a boolean setting, labelled by its row and column. */
function Cell({ name, label }: { name: string | null; label: string }) {
  const value = useApp((s) => (name ? s.settings[name] : undefined));
  const [state, save] = useSaving();
  if (!name) return <td />;
  return (
    <td>
      <input
        type="checkbox"
        id={`setting-${name}`}
        data-setting={name}
        aria-label={label}
        checked={value === true}
        disabled={state.kind === 'saving'}
        onChange={(e) => void save(() => saveSettings({ [name]: e.target.checked }))}
      />
      {state.kind === 'error' ? <SaveStatus state={state} /> : null}
    </td>
  );
}

const COLUMNS = ['Desktop', 'Sound', 'Mobile', 'Email', '@all mentions'];
const ROWS: { label: string; names: (string | null)[] }[] = [
  {
    label: 'Channels',
    names: [
      'enable_stream_desktop_notifications',
      'enable_stream_audible_notifications',
      'enable_stream_push_notifications',
      'enable_stream_email_notifications',
      'wildcard_mentions_notify',
    ],
  },
  {
    label: 'DMs, mentions and alerts',
    names: ['enable_desktop_notifications', 'enable_sounds', 'enable_offline_push_notifications', 'enable_offline_email_notifications', null],
  },
  {
    label: 'Followed topics',
    names: [
      'enable_followed_topic_desktop_notifications',
      'enable_followed_topic_audible_notifications',
      'enable_followed_topic_push_notifications',
      'enable_followed_topic_email_notifications',
      'enable_followed_topic_wildcard_mentions_notify',
    ],
  },
];

const BATCHING: Option[] = [
  [120, '2 minutes'],
  [300, '5 minutes'],
  [600, '10 minutes'],
  [1800, '30 minutes'],
  [3600, '1 hour'],
  [21600, '6 hours'],
  [86400, '1 day'],
  [604800, '1 week'],
].map(([value, label]) => ({ value, label: String(label) }));

const SOUNDS: Option[] = ['zulip', 'ding', 'chime-bell', 'drumroll', 'none'].map((s) => ({ value: s, label: s === 'none' ? 'None' : s }));

/** #settings/notifications: where each kind of message notifies, email settings, per-channel overrides. */
export function NotificationsSection() {
  const batching = useApp((s) => Number(s.settings.email_notifications_batching_period_seconds));
  const batchingOptions = BATCHING.some((b) => b.value === batching) ? BATCHING : [...BATCHING, { value: batching, label: `${batching} seconds` }];
  return (
    <>
      <SettingsGroup title="Notification triggers">
        <div className="table-scroll">
          <table className="settings-table">
            <thead>
              <tr>
                <th scope="col">
                  <span className="visually-hidden">Messages</span>
                </th>
                {COLUMNS.map((c) => (
                  <th key={c} scope="col">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {ROWS.map((row) => (
                <tr key={row.label}>
                  <th scope="row">{row.label}</th>
                  {row.names.map((name, i) => (
                    <Cell key={name ?? i} name={name} label={`${row.label}: ${COLUMNS[i]}`} />
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </SettingsGroup>
      <SettingsGroup title="Desktop">
        <Toggle name="pm_content_in_desktop_notifications" label="Include the content of direct messages in desktop notifications" />
        <Choice name="notification_sound" label="Notification sound" options={SOUNDS} />
        <Choice
          name="desktop_icon_count_display"
          label="Unread count badge"
          options={[
            { value: 1, label: 'All unread messages' },
            { value: 2, label: 'DMs, mentions and followed topics' },
            { value: 3, label: 'DMs and mentions' },
            { value: 4, label: 'None' },
          ]}
        />
      </SettingsGroup>
      <SettingsGroup title="Mobile">
        <Toggle name="enable_online_push_notifications" label="Send mobile notifications even when I'm online" />
      </SettingsGroup>
      <SettingsGroup title="Email">
        <Choice name="email_notifications_batching_period_seconds" label="Delay before sending message notification emails" options={batchingOptions} />
        <Toggle name="message_content_in_email_notifications" label="Include message content in message notification emails" />
        <Choice
          name="realm_name_in_email_notifications_policy"
          label="Include the organization name in the subject"
          options={[
            { value: 1, label: 'Automatic' },
            { value: 2, label: 'Always' },
            { value: 3, label: 'Never' },
          ]}
        />
        <Toggle name="enable_digest_emails" label="Send digest emails when I'm away" />
        <Toggle name="enable_login_emails" label="Send me a notification email when I sign in" />
        <Toggle name="enable_marketing_emails" label="Send me news about this server" />
      </SettingsGroup>
      <SettingsGroup title="Channel settings">
        <ChannelOverrides />
      </SettingsGroup>
    </>
  );
}
