import type { AppDeps } from '../deps';
import type { User } from '../users/model';
import { isAdminRole } from '../users/roles';
import { requireMemberOrAdmin } from './access';
import { Invitation, InviteStatus } from './model';
import { invitationDict } from './view';

/**
 * GET /invites: the unexpired invitations the user may manage: everyone's for administrators,
 * their own for others. Email invitations first, then reusable links.
 */
export async function listInvitations(deps: AppDeps, actor: User): Promise<Record<string, unknown>[]> {
  requireMemberOrAdmin(actor);
  const query = Invitation.query(deps.knex)
    .where({ realm_id: deps.realmId, status: InviteStatus.ACTIVE })
    .where((q) => q.whereNull('expiry_date').orWhere('expiry_date', '>', new Date()))
    .orderBy([{ column: 'is_multiuse' }, { column: 'id' }]);
  if (!isAdminRole(actor.role)) query.where('referred_by_id', actor.id);
  return (await query).map((invite) => invitationDict(deps.config, invite));
}

/**
 * The newest email invitation to this address that can still be accepted (active, unexpired), as
 * Zulip picks the invitation a single sign-on sign-up honours.
 */
export async function pendingEmailInvitation(deps: AppDeps, email: string): Promise<Invitation | undefined> {
  return Invitation.query(deps.knex)
    .where({ realm_id: deps.realmId, is_multiuse: false, status: InviteStatus.ACTIVE })
    .whereRaw('lower(email) = lower(?)', [email])
    .where((q) => q.whereNull('expiry_date').orWhere('expiry_date', '>', new Date()))
    .orderBy([
      { column: 'invited_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .first();
}
