import type { Config } from '../../config';
import type { ZulipEvent } from '../../realtime/bus';
import type { User } from '../users/model';
import { groupByApiEmail, Viewer } from '../settings/email-visibility';
import { legacyClientPresence, modernPresence, PresenceTimes } from './format';

/**
 * The presence event as published on the bus carries both formats:
 *
 *   {type: "presence", user_id, email, server_timestamp,
 *    presence: {website: {client, status, timestamp, pushable}},      legacy
 *    presences: {"<user_id>": {active_timestamp, idle_timestamp}}}   modern
 *
 * `email` is the API email the recipients of that delivery see. Each queue gets one of the two
 * shapes (see `presenceEventForQueue` in connect.ts).
 */
/** One delivery per distinct API email of `target` among the recipients. */
export function presenceEvents(config: Config, target: User, times: PresenceTimes, recipients: Viewer[]): { event: ZulipEvent; userIds: number[] }[] {
  const serverTimestamp = Date.now() / 1000;
  const website = legacyClientPresence(times);
  const modern = modernPresence(times);
  return groupByApiEmail(config, target, recipients).map(({ email, userIds }) => ({
    userIds,
    event: {
      type: 'presence',
      user_id: target.id,
      email,
      server_timestamp: serverTimestamp,
      presence: { website },
      presences: { [String(target.id)]: modern },
    },
  }));
}
