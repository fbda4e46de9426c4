import type { Config } from '../../config';
import type { Invitation } from './model';

const seconds = (date: Date | null) => (date === null ? null : Math.floor(new Date(date).getTime() / 1000));

export function inviteLink(config: Config, key: string): string {
  return `${config.externalUrl}/join/${key}/`;
}

/** An invitation as GET /invites lists it. */
export function invitationDict(config: Config, invite: Invitation): Record<string, unknown> {
  const common = {
    id: invite.id,
    invited_by_user_id: invite.referred_by_id,
    invited: seconds(invite.invited_at),
    expiry_date: seconds(invite.expiry_date),
    invited_as: invite.invited_as,
    notify_referrer_on_join: invite.notify_referrer_on_join,
  };
  if (invite.is_multiuse) return { ...common, is_multiuse: true, link_url: inviteLink(config, invite.key) };
  return { ...common, email: invite.email, is_multiuse: false };
}
