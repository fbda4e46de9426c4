import type { AppDeps } from '../deps';
import { inTransaction } from '../../db/unit-of-work';
import { errors } from '../../errors';
import { forgetAuthAfterCommit } from '../users/auth-cache';
import { hashPassword } from '../users/credentials';
import { User } from '../users/model';
import { isValidEmail } from '../../validation/email';
import { getRealm } from '../realm/queries';
import { passwordResetLink, sendNoAccountEmail, sendPasswordResetEmail } from './mails';
import { countPasswordAttempt, isStrongPassword, passwordTooWeak } from './password-policy';
import { deleteUserSessions } from './sessions';
import { createToken, findUsableToken, markUsed } from './tokens';

/** How long a reset link works. */
export const PASSWORD_RESET_VALID_MINUTES = 60;

/**
 * A password-reset request. The requester learns nothing about the address: whether or not it has
 * an account, an email goes to it (a link, or a note that there is no usable account) and the
 * answer is the same. Counted per address and per client address, as Zulip does.
 */
export async function requestPasswordReset(deps: AppDeps, rawEmail: string, clientAddress: string): Promise<void> {
  const email = rawEmail.trim();
  if (!isValidEmail(email)) throw errors.badRequest('Enter a valid email address.');
  await deps.rateLimits.hit('sends_email_by_ip', clientAddress);
  await deps.rateLimits.hit('password_reset_form_by_email', email.toLowerCase());
  const realm = await getRealm(deps);
  const user = await User.query(deps.knex).where({ realm_id: deps.realmId, is_bot: false }).whereRaw('lower(delivery_email) = lower(?)', [email]).first();
  if (!user || !user.is_active || realm.deactivated) {
    await sendNoAccountEmail(deps.config, realm.name, email, user !== undefined);
    return;
  }
  const secret = await createToken(deps.knex, {
    realmId: deps.realmId,
    userId: user.id,
    purpose: 'password_reset',
    validMinutes: PASSWORD_RESET_VALID_MINUTES,
  });
  await sendPasswordResetEmail(deps.config, realm.name, user.delivery_email, passwordResetLink(deps.config, secret), PASSWORD_RESET_VALID_MINUTES);
}

/** The account a reset link is for, while the link is usable (the set-new-password page). */
export async function passwordResetAccount(deps: AppDeps, secret: string): Promise<User> {
  const token = await findUsableToken(deps.knex, deps.realmId, 'password_reset', secret);
  const user = await User.query(deps.knex).findById(token.user_id);
  if (!user || !user.is_active) throw errors.badRequest('Account is deactivated');
  return user;
}

/**
 * Sets a new password through a reset link. The link then stops working, as do the account's
 * other reset links and its web sessions; API keys are kept, as in Zulip.
 */
export async function resetPassword(deps: AppDeps, secret: string, newPassword: string): Promise<User> {
  const user = await passwordResetAccount(deps, secret);
  if (!isStrongPassword(newPassword)) throw passwordTooWeak();
  await countPasswordAttempt(deps, user.delivery_email);
  // Argon2 is slow on purpose: hash before the transaction starts.
  const passwordHash = await hashPassword(newPassword);
  await inTransaction(deps, deps.realmId, async (uow) => {
    const token = await findUsableToken(uow.trx, deps.realmId, 'password_reset', secret, true);
    await markUsed(uow.trx, token.id);
    await uow.trx('account_tokens').where({ user_id: token.user_id, purpose: 'password_reset' }).whereNull('used_at').update({ used_at: new Date() });
    await User.query(uow.trx).patch({ password_hash: passwordHash }).where({ id: token.user_id });
    await deleteUserSessions(uow.trx, token.user_id);
    forgetAuthAfterCommit(deps, uow, token.user_id);
  });
  return user;
}
