import crypto from 'node:crypto';
import { cancelWelcomeFollowUps } from '../accounts/welcome-follow-ups';
import type { AppDeps } from '../deps';
import { updateOwnSettings } from '../settings/actions';
import { User } from '../users/model';
import { sign, signingKey, UNSUBSCRIBE_SETTINGS, type UnsubscribeType } from './unsubscribe-links';

// The link itself is made in unsubscribe-links.ts, which senders import without the settings
// actions (those reach back to the login path that sends new-login emails).

/** Turns the setting off for the token's user (welcome: deletes their pending onboarding emails); false when the link is not valid. */
export async function unsubscribe(deps: AppDeps, type: string, token: string): Promise<boolean> {
  if (!(type in UNSUBSCRIBE_SETTINGS) && type !== 'welcome') return false;
  const match = /^(\d{1,9})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return false;
  const userId = Number(match[1]);
  const expected = Buffer.from(sign(await signingKey(deps), userId, type as UnsubscribeType));
  const given = Buffer.from(match[2]);
  if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) return false;
  const user = await User.query(deps.knex).findById(userId);
  if (!user || !user.is_active || user.realm_id !== deps.realmId) return false;
  if (type === 'welcome') await cancelWelcomeFollowUps(deps.knex, deps.realmId, userId);
  else await updateOwnSettings(deps, user, { settings: { [UNSUBSCRIBE_SETTINGS[type as keyof typeof UNSUBSCRIBE_SETTINGS]]: false } });
  return true;
}
