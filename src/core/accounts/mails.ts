import type { Knex } from 'knex';
import type { Config } from '../../config';
import type { AppDeps } from '../deps';
import { Realm } from '../realm/model';
import type { User } from '../users/model';
import { sendEmail } from '../email/outbox';
import { emailChangeConfirmationEmail, emailChangedNoticeEmail, noAccountEmail, passwordResetEmail } from '../email/templates';

/** The emails the account flows send (rendered in email/templates.ts). Links are absolute, under the server's external URL. */
export const passwordResetLink = (config: Config, secret: string) => `${config.externalUrl}/accounts/password/reset/${secret}/`;
export const emailChangeLink = (config: Config, secret: string) => `${config.externalUrl}/accounts/confirm_new_email/${secret}/`;

export async function sendPasswordResetEmail(config: Config, realmName: string, to: string, link: string, validMinutes: number): Promise<void> {
  await sendEmail(config, passwordResetEmail({ to, realmName, link, validMinutes }));
}

/** Sent when the address has no usable account, so the answer to the requester stays the same. */
export async function sendNoAccountEmail(config: Config, realmName: string, to: string, deactivated: boolean): Promise<void> {
  await sendEmail(config, noAccountEmail({ to, realmName, realmUrl: config.externalUrl, deactivated }));
}

export async function sendEmailChangeConfirmation(config: Config, realmName: string, oldEmail: string, to: string, link: string): Promise<void> {
  await sendEmail(config, emailChangeConfirmationEmail({ to, realmName, oldEmail, link }));
}

export async function sendEmailChangedNotice(config: Config, realmName: string, oldEmail: string, newEmail: string): Promise<void> {
  await sendEmail(config, emailChangedNoticeEmail({ realmName, realmUrl: config.externalUrl, oldEmail, newEmail }));
}

/** Who an account's email goes to, and the organization it comes from (new-login and welcome emails). */
export async function accountMailAddressing(deps: Pick<AppDeps, 'config' | 'realmId'>, db: Knex, user: Pick<User, 'delivery_email' | 'full_name'>) {
  const realm = await Realm.query(db).findById(deps.realmId);
  return { to: user.delivery_email, fullName: user.full_name, realmName: realm?.name ?? deps.config.realmName, realmUrl: deps.config.externalUrl };
}
