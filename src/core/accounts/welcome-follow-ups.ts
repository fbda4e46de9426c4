import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import type { UnitOfWork } from '../../db/unit-of-work';
import type { ClaimedDelivery } from '../deliveries/store';
import { insertDeliveries } from '../deliveries/store';
import type { OutgoingEmail } from '../email/outbox';
import { onboardingGuideEmail, onboardingTopicsEmail } from '../email/templates';
import { unsubscribeUrl } from '../notifications/unsubscribe-links';
import { Realm } from '../realm/model';
import { storedRealmSetting } from '../realm/setting-store';
import { User } from '../users/model';
import { isAdminRole } from '../users/roles';
import { accountMailAddressing } from './mails';
import { onboardingEmailDelays } from './onboarding-schedule';

/**
 * The onboarding emails that follow the welcome email days later, as Zulip schedules them with it:
 * one about topics (unless the address has another account on this server), and one with advice
 * for the organization's type (only some types; for the community types, only to administrators).
 * Zulip's third one goes only to the person who created the organization, whom Parley makes at
 * first start without a welcome email, so it is never queued here.
 *
 * Each is an outbox row (kind email) due at its time, carrying only who and which: it is written
 * when sent, to the address the account has then, and skipped (marked done, nothing sent) if the
 * account, or the organization, is no longer active. The one-click "welcome" unsubscribe,
 * deactivating the account and deactivating the organization delete the pending ones.
 */
const FOLLOW_UP = 'welcome_follow_up';

type FollowUp = 'zulip_topics' | 'zulip_guide';

interface FollowUpPayload {
  [FOLLOW_UP]: FollowUp;
  user_id: number;
  /** zulip_guide: which advice (see GUIDE_BY_ORG_TYPE), fixed when queued as Zulip does. */
  guide?: string;
}

/** org_type -> the advice of the guide email; the types not here get none. */
const GUIDE_BY_ORG_TYPE: Record<number, { guide: string; adminsOnly: boolean }> = {
  10: { guide: 'business', adminsOnly: false },
  20: { guide: 'opensource', adminsOnly: false },
  30: { guide: 'education', adminsOnly: false },
  35: { guide: 'education', adminsOnly: false },
  40: { guide: 'research', adminsOnly: false },
  50: { guide: 'event', adminsOnly: false },
  // Zulip sends its guide for communities to administrators only (non-profits get that one too).
  60: { guide: 'community', adminsOnly: true },
  90: { guide: 'community', adminsOnly: true },
};

export function isWelcomeFollowUp(payload: Record<string, unknown>): boolean {
  return typeof payload[FOLLOW_UP] === 'string';
}

/** Writes the follow-ups of a person who just joined (the caller has checked send_welcome_emails). */
export async function queueWelcomeFollowUps(deps: AppDeps, uow: UnitOfWork, user: User, now = new Date()): Promise<void> {
  const delays = onboardingEmailDelays(user.date_joined ?? now, user.timezone);
  const at = (ms: number) => new Date(now.getTime() + ms);
  const rows: { payload: FollowUpPayload; notBefore: Date }[] = [];
  if (!(await hasOtherAccount(uow.trx, user))) {
    rows.push({ payload: { [FOLLOW_UP]: 'zulip_topics', user_id: user.id }, notBefore: at(delays.zulip_topics) });
  }
  const orgType = Number(await storedRealmSetting(uow.trx, deps.realmId, 'org_type', 0));
  const guide = GUIDE_BY_ORG_TYPE[orgType];
  if (guide && (!guide.adminsOnly || isAdminRole(user.role))) {
    rows.push({ payload: { [FOLLOW_UP]: 'zulip_guide', user_id: user.id, guide: guide.guide }, notBefore: at(delays.zulip_guide) });
  }
  await insertDeliveries(
    uow.trx,
    deps.realmId,
    rows.map((r) => ({ kind: 'email', payload: { ...r.payload }, notBefore: r.notBefore })),
  );
}

/** Zulip sends the topics email only to an address with no other account on the server. */
async function hasOtherAccount(db: Knex, user: User): Promise<boolean> {
  const row = await db('users').whereRaw('lower(delivery_email) = lower(?)', [user.delivery_email]).whereNot('id', user.id).first('id');
  return Boolean(row);
}

/** Deletes pending follow-ups: one person's, or (userId null) everyone's in the organization. Answers how many. */
export async function cancelWelcomeFollowUps(db: Knex, realmId: number, userId: number | null): Promise<number> {
  const query = db('deliveries').where({ realm_id: realmId, kind: 'email', state: 'pending' }).whereRaw(`payload->>'${FOLLOW_UP}' IS NOT NULL`);
  if (userId !== null) query.whereRaw(`payload->>'user_id' = ?`, [String(userId)]);
  return query.delete();
}

/** The email a claimed follow-up sends now, or null to skip it (marked done without sending). */
export async function renderWelcomeFollowUp(deps: AppDeps, item: ClaimedDelivery): Promise<OutgoingEmail | null> {
  const payload = item.payload as unknown as FollowUpPayload;
  // Deleted while claimed (unsubscribed, deactivated): not to be sent.
  if (!(await deps.knex('deliveries').where({ id: item.id, state: 'pending' }).first('id'))) return null;
  const user = await User.query(deps.knex).findById(payload.user_id);
  if (!user || user.realm_id !== deps.realmId || !user.is_active || user.is_bot) return null;
  const realm = await Realm.query(deps.knex).findById(deps.realmId);
  if (!realm || realm.deactivated) return null;
  const input = {
    ...(await accountMailAddressing(deps, deps.knex, user)),
    unsubscribeUrl: await unsubscribeUrl(deps, user.id, 'welcome'),
  };
  if (payload[FOLLOW_UP] === 'zulip_topics') return onboardingTopicsEmail(input);
  return onboardingGuideEmail({ ...input, guide: payload.guide ?? 'business', isAdmin: isAdminRole(user.role) });
}
