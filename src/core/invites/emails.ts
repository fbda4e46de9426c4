import type { Config } from '../../config';
import { OutgoingEmail } from '../email/outbox';
import { inviteLink } from './view';

/** The invitation email: who invited whom to which organization, and the link to join. */
export function invitationEmail(
  config: Config,
  input: { to: string; key: string; referrerName: string; referrerEmail: string; realmName: string; expiryDate: Date | null },
): OutgoingEmail {
  const link = inviteLink(config, input.key);
  const expiry = input.expiryDate ? `\nThis invitation expires on ${input.expiryDate.toUTCString()}.\n` : '';
  const text =
    `Hi,\n\n${input.referrerName} (${input.referrerEmail}) has invited you to join ${input.realmName}, ` +
    `a team chat organization.\n\nTo create your account, open this link:\n\n${link}\n${expiry}\n` +
    `If you were not expecting this invitation, you can ignore this email.\n`;
  return { to: input.to, subject: `${input.referrerName} invited you to join ${input.realmName}`, text };
}
