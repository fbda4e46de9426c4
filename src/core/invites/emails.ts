import type { Config } from '../../config';
import { OutgoingEmail } from '../email/outbox';
import { invitationEmail as renderInvitation } from '../email/templates';
import { inviteLink } from './view';

/** The invitation email: who invited whom to which organization, and the link to join. */
export function invitationEmail(
  config: Config,
  input: { to: string; key: string; referrerName: string; referrerEmail: string; realmName: string; expiryDate: Date | null },
): OutgoingEmail {
  const { key, ...rest } = input;
  return renderInvitation({ ...rest, link: inviteLink(config, key) });
}
