import type { AppDeps } from '../deps';
import { inTransaction } from '../../db/unit-of-work';
import { errors } from '../../errors';
import { EmailRefusal, emailDomainCheck } from '../realm-domains/store';
import { currentRealmSettings } from '../realm/values';
import { activeViewers } from '../settings/email-visibility';
import { avatarFields, emitAddressSight } from '../settings/email-visibility';
import { forgetAuthAfterCommit } from '../users/auth-cache';
import { User } from '../users/model';
import { isAdminRole } from '../users/roles';
import { isValidEmail } from '../../validation/email';
import { canSeeDeliveryEmail } from '../users/view';
import { emailChangeLink, sendEmailChangeConfirmation, sendEmailChangedNotice } from './mails';
import { createToken, findUsableToken, markUsed } from './tokens';

/** Zulip's EMAIL_CHANGE confirmations last a day. */
export const EMAIL_CHANGE_VALID_MINUTES = 24 * 60;

/** Zulip's validate_email_not_already_in_realm (verbose=False). */
async function checkAddressFree(db: AppDeps['knex'], realmId: number, email: string): Promise<void> {
  const holder = await User.query(db).where('realm_id', realmId).whereRaw('lower(delivery_email) = lower(?)', [email]).first();
  if (holder) throw errors.badRequest(holder.is_active ? 'Already has an account.' : 'Account has been deactivated.');
}

/** Why the organization refuses a new address (Zulip's realm email validator). */
const EMAIL_CHANGE_REFUSALS: Record<EmailRefusal, string> = {
  outside_domain: 'Your email address is not in one of the domains that are allowed to register for accounts in this organization.',
  disposable: 'Please use your real email address.',
  plus: 'Email addresses containing + are not allowed.',
};

/**
 * The `email` of PATCH /settings: checks the new address and sends a confirmation link to it; the
 * address changes only once the link is opened. A new request replaces earlier ones.
 */
export async function startEmailChange(deps: AppDeps, user: User, rawEmail: string): Promise<void> {
  const email = rawEmail.trim();
  if (email === user.delivery_email) return;
  if (!user.is_active) throw errors.badRequest('Account is deactivated');
  const { realm, values } = await currentRealmSettings(deps);
  if (values.email_changes_disabled === true && !isAdminRole(user.role)) {
    throw errors.badRequest('Email address changes are disabled in this organization.');
  }
  if (!isValidEmail(email)) throw errors.badRequest('Invalid address.');
  const refused = (await emailDomainCheck(deps.knex, deps.realmId))(email);
  if (refused) throw errors.badRequest(EMAIL_CHANGE_REFUSALS[refused]);
  await checkAddressFree(deps.knex, deps.realmId, email);
  await deps.rateLimits.hit('email_change_by_user', String(user.id));
  const secret = await deps.knex.transaction(async (trx) => {
    await trx('account_tokens').where({ user_id: user.id, purpose: 'email_change' }).whereNull('used_at').update({ used_at: new Date() });
    return createToken(trx, {
      realmId: deps.realmId,
      userId: user.id,
      purpose: 'email_change',
      validMinutes: EMAIL_CHANGE_VALID_MINUTES,
      newEmail: email,
      oldEmail: user.delivery_email,
    });
  });
  await sendEmailChangeConfirmation(deps.config, realm.name, user.delivery_email, email, emailChangeLink(deps.config, secret));
}

/**
 * Opening the confirmation link: the address changes, everyone who may see the real address is told
 * (realm_user updates: delivery_email, the API email and the avatar computed from it), and the old
 * address hears of the change.
 */
export async function confirmEmailChange(deps: AppDeps, secret: string): Promise<{ oldEmail: string; newEmail: string }> {
  const { realm } = await currentRealmSettings(deps);
  const result = await inTransaction(deps, deps.realmId, async (uow) => {
    const token = await findUsableToken(uow.trx, deps.realmId, 'email_change', secret, true);
    await markUsed(uow.trx, token.id);
    const user = await User.query(uow.trx).findById(token.user_id);
    if (!user || !user.is_active) throw errors.badRequest('Account is deactivated');
    const newEmail = token.new_email!;
    await checkAddressFree(uow.trx, deps.realmId, newEmail);
    await User.query(uow.trx).patch({ delivery_email: newEmail }).where({ id: user.id });
    const changed = Object.assign(new User(), user, { delivery_email: newEmail });
    const viewers = await activeViewers(uow.trx, deps.realmId);
    const seeing = viewers.filter((v) => canSeeDeliveryEmail(v, changed)).map((v) => v.id);
    emitAddressSight(uow, deps.config, changed, seeing, true);
    // A gravatar follows the address, also for those who see only the placeholder.
    if (changed.avatar_source === 'G') {
      const others = viewers.filter((v) => !seeing.includes(v.id)).map((v) => v.id);
      if (others.length > 0) uow.emit({ type: 'realm_user', op: 'update', person: avatarFields(deps.config, changed) }, others);
    }
    forgetAuthAfterCommit(deps, uow, user.id);
    return { oldEmail: user.delivery_email, newEmail };
  });
  await sendEmailChangedNotice(deps.config, realm.name, result.oldEmail, result.newEmail);
  return result;
}
