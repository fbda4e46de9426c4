import type { AppDeps } from '../deps';
import { deliverNow } from '../deliveries/attempt';
import { insertDeliveries } from '../deliveries/store';
import { loginNoticeEmail } from '../email/templates';
import { unsubscribeUrl } from '../notifications/unsubscribe-links';
import { userSettings } from '../settings/store';
import { noteLogin } from '../users/first-login';
import { User } from '../users/model';
import { accountMailAddressing } from './mails';
import { deviceBrowser, deviceOs } from './user-agent';

/** Where a login came from: the client's address (as the rate limits see it) and its User-Agent. */
export interface LoginDevice {
  address: string;
  userAgent: string;
}

/** A login this soon after the account was made is its sign-up: no email about it, as in Zulip. */
export const JUST_CREATED_MS = 60_000;

/**
 * Every login that proves the owner's credentials (a web session, POST /fetch_api_key and GraphQL
 * fetchApiKey, the mobile login flow; passwords, the directory or single sign-on): the first
 * login's date_joined (first-login.ts), and the "new login" email unless the user turned
 * enable_login_emails off or the account was only just created. The email goes through the outbox
 * and is sent before the login answers; a failed send is retried by the delivery worker.
 */
export async function recordLogin(deps: AppDeps, userId: number, device: LoginDevice): Promise<void> {
  // Read before noteLogin, which moves an API-made account's date_joined to this login.
  const user = await User.query(deps.knex).findById(userId);
  await noteLogin(deps, userId);
  if (!user || user.is_bot || !user.is_active || Date.now() - new Date(user.date_joined).getTime() < JUST_CREATED_MS) return;
  const settings = await userSettings(deps.knex, user);
  if (!settings.enable_login_emails) return;
  const email = loginNoticeEmail({
    ...(await accountMailAddressing(deps, deps.knex, user)),
    loginTime: formatLoginTime(new Date(), user.timezone, Boolean(settings.twenty_four_hour_time)),
    address: device.address || 'an unknown address',
    browser: deviceBrowser(device.userAgent) ?? 'An unknown browser',
    os: deviceOs(device.userAgent) ?? 'an unknown operating system',
    unsubscribeUrl: await unsubscribeUrl(deps, user.id, 'login'),
  });
  await deliverNow(deps, await insertDeliveries(deps.knex, deps.realmId, [{ kind: 'email', payload: { ...email } }]));
}

/** "Sunday, December 6, 2026 at 1:05 PM CET": in the user's time zone (UTC when unset or unknown). */
export function formatLoginTime(when: Date, timezone: string, twentyFourHour: boolean): string {
  const format = (timeZone: string) => {
    const date = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' }).format(when);
    const time = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hour: 'numeric',
      minute: '2-digit',
      hourCycle: twentyFourHour ? 'h23' : 'h12',
      timeZoneName: 'short',
    }).format(when);
    return `${date} at ${time}`;
  };
  try {
    return format(timezone || 'UTC');
  } catch {
    return format('UTC');
  }
}
