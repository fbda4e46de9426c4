import crypto from 'node:crypto';
import type { Knex } from 'knex';
import { ApiError, errors } from '../../errors';
import type { User } from '../users/model';
import { isAdminRole, isGuestRole, isOwnerRole } from '../users/roles';
import { Invitation, InviteStatus } from './model';
import { isRowId } from '../../db/ids';
import { holdsStoredRealmSetting } from '../realm/permission';

/** Invitation endpoints are for members and above (Zulip's require_member_or_admin). */
export function requireMemberOrAdmin(actor: User): void {
  if (isGuestRole(actor.role)) throw errors.badRequest('Not allowed for guest users');
  if (actor.is_bot) throw errors.badRequest('This endpoint does not accept bot requests.');
}

/** Who may send email invitations: the organization's can_invite_users_group. */
export function canInviteByEmail(db: Knex, actor: User): Promise<boolean> {
  return holdsStoredRealmSetting(db, actor, 'can_invite_users_group');
}

/** Who may create reusable links: the organization's create_multiuse_invite_group. */
export function canCreateMultiuseInvite(db: Knex, actor: User): Promise<boolean> {
  return holdsStoredRealmSetting(db, actor, 'create_multiuse_invite_group');
}

/** An invitation may give a role no stronger than the inviter's own (a smaller number is stronger). */
export function requireRoleWithinOwn(actor: User, invitedAs: number): void {
  if (invitedAs < actor.role) throw errors.insufficientPermission();
}

/** Custom welcome text is for administrators. */
export function requireWelcomeTextAllowed(actor: User, text: string | null): void {
  if (text !== null && !isAdminRole(actor.role)) throw errors.badRequest('Must be an organization administrator');
}

const noSuchInvitation = () => errors.badRequest('No such invitation');

/**
 * Managing someone else's invitation takes an administrator, and an owner for invitations to
 * the owner role.
 */
function requireCanManage(actor: User, invite: Invitation): void {
  if (invite.referred_by_id === actor.id) return;
  if (isOwnerRole(invite.invited_as) && !isOwnerRole(actor.role)) throw errors.mustBeOwner();
  if (!isAdminRole(actor.role)) throw errors.badRequest('Must be an organization administrator');
}

export async function findManageableEmailInvite(db: Knex, actor: User, inviteId: number): Promise<Invitation> {
  const invite = isRowId(inviteId) ? await Invitation.query(db).findOne({ id: inviteId, realm_id: actor.realm_id, is_multiuse: false }) : undefined;
  if (!invite) throw noSuchInvitation();
  requireCanManage(actor, invite);
  return invite;
}

export async function findManageableMultiuseInvite(db: Knex, actor: User, inviteId: number): Promise<Invitation> {
  const invite = isRowId(inviteId) ? await Invitation.query(db).findOne({ id: inviteId, realm_id: actor.realm_id, is_multiuse: true }) : undefined;
  if (!invite) throw noSuchInvitation();
  requireCanManage(actor, invite);
  if (invite.status === InviteStatus.REVOKED) throw errors.badRequest('Invitation has already been revoked');
  return invite;
}

/** Link keys: 24 characters of [a-z0-9]. */
export function generateInviteKey(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  let key = '';
  while (key.length < 24) {
    for (const byte of crypto.randomBytes(32)) {
      if (byte < 252 && key.length < 24) key += alphabet[byte % 36];
    }
  }
  return key;
}

export const INVITE_KEY_RE = /^[a-z0-9]{24}$/;

export interface InvitationFailure {
  msg: string;
  errors: [string, string, boolean][];
  sentInvitations: boolean;
  dailyLimitReached?: boolean;
}

export function invitationFailed(failure: InvitationFailure): ApiError {
  return new ApiError('INVITATION_FAILED', failure.msg, 400, {
    errors: failure.errors,
    sent_invitations: failure.sentInvitations,
    license_limit_reached: false,
    daily_limit_reached: failure.dailyLimitReached ?? false,
  });
}
