import { ChannelTable, DISPLAY_COLUMNS, NOTIFICATION_COLUMNS } from './ChannelOverrides';

/** #settings/subscriptions: each subscribed channel's colour, pin, mute and notifications. */
export function SubscriptionsSection() {
  return (
    <>
      <p className="soft">
        Find more channels in <a href="#channels">Browse channels</a>.
      </p>
      <ChannelTable columns={[...DISPLAY_COLUMNS, ...NOTIFICATION_COLUMNS]} label="Your channels" />
    </>
  );
}
