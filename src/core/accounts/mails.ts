import type { Config } from '../../config';
import { sendEmail } from '../email/outbox';

/** The emails the account flows send. Links are absolute, under the server's external URL. */
export const passwordResetLink = (config: Config, secret: string) => `${config.externalUrl}/accounts/password/reset/${secret}/`;
export const emailChangeLink = (config: Config, secret: string) => `${config.externalUrl}/accounts/confirm_new_email/${secret}/`;

export async function sendPasswordResetEmail(config: Config, realmName: string, to: string, link: string, validMinutes: number): Promise<void> {
  await sendEmail(config, {
    to,
    subject: `Reset your password for ${realmName}`,
    text:
      `Somebody (possibly you) requested a new password for your account ${to} in ${realmName}.\n\n` +
      `Click the link below to choose a new password:\n${link}\n\n` +
      `The link works once and expires in ${validMinutes} minutes. If you did not request this, you can ignore this email.\n`,
  });
}

/** Sent when the address has no usable account, so the answer to the requester stays the same. */
export async function sendNoAccountEmail(config: Config, realmName: string, to: string, deactivated: boolean): Promise<void> {
  const why = deactivated ? 'the account with this address has been deactivated' : 'there is no account with this address';
  await sendEmail(config, {
    to,
    subject: `Password reset request for ${realmName}`,
    text:
      `Somebody (possibly you) requested a password reset for ${to} in ${realmName} (${config.externalUrl}), ` +
      `but ${why}. If you did not request this, you can ignore this email.\n`,
  });
}

export async function sendEmailChangeConfirmation(config: Config, realmName: string, oldEmail: string, to: string, link: string): Promise<void> {
  await sendEmail(config, {
    to,
    subject: `Verify your new email address for ${realmName}`,
    text:
      `We received a request to change the email address for the account ${oldEmail} in ${realmName} to ${to}.\n\n` +
      `Click the link below to confirm the change:\n${link}\n\nIf you did not request this, you can ignore this email.\n`,
  });
}

export async function sendEmailChangedNotice(config: Config, realmName: string, oldEmail: string, newEmail: string): Promise<void> {
  await sendEmail(config, {
    to: oldEmail,
    subject: `Email address changed for ${realmName}`,
    text:
      `The email address for your account in ${realmName} (${config.externalUrl}) has been changed from ${oldEmail} to ${newEmail}.\n\n` +
      `If you did not make this change, contact your organization's administrators right away.\n`,
  });
}
