import { Model } from 'objection';

/** Zulip's limit on a custom welcome text (an invitation's or the organization's). */
export const MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH = 8000;

export const InviteStatus = { ACTIVE: 0, USED: 1, REVOKED: 2 } as const;

export class Invitation extends Model {
  static tableName = 'invitations';

  id!: number;
  realm_id!: number;
  is_multiuse!: boolean;
  email!: string | null;
  referred_by_id!: number;
  invited_as!: number;
  stream_ids!: number[];
  group_ids!: number[];
  include_realm_default_subscriptions!: boolean;
  notify_referrer_on_join!: boolean;
  welcome_message_custom_text!: string | null;
  key!: string;
  invited_at!: Date;
  expiry_date!: Date | null;
  status!: number;
  used_by_id!: number | null;
}

/** Active and not past its expiry. */
export function isUsable(invite: Invitation, now = new Date()): boolean {
  return invite.status === InviteStatus.ACTIVE && (invite.expiry_date === null || new Date(invite.expiry_date) > now);
}
