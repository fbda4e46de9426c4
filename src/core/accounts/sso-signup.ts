import type { AppDeps } from '../deps';
import { errors } from '../../errors';
import { acceptInvitation } from '../invites/actions';
import { pendingEmailInvitation } from '../invites/queries';
import { EmailRefusal, emailDomainCheck } from '../realm-domains/store';
import { storedRealmSetting } from '../realm/setting-store';
import { createUser } from '../users/actions';
import type { User } from '../users/model';

/** Zulip's sign-up form wording, per reason an address may not join. */
function signupRefusal(refused: EmailRefusal, email: string): string {
  if (refused === 'disposable') return 'Please use your real email address.';
  if (refused === 'plus') return 'Email addresses containing + are not allowed in this organization.';
  return `Your email address, ${email}, is not in one of the domains that are allowed to register for accounts in this organization.`;
}

/**
 * The account a first single sign-on creates for an address the provider vouched for. As in
 * Zulip, this is a sign-up: while invite_required is on, only an address with a pending email
 * invitation may join, and the organization's domain rules apply. A pending invitation is
 * honoured either way: the account gets its role, channels and groups, and the invitation is used.
 */
export async function signUpThroughSso(deps: AppDeps, email: string, fullName: string): Promise<User> {
  const invitation = await pendingEmailInvitation(deps, email);
  if (!invitation && (await storedRealmSetting(deps.knex, deps.realmId, 'invite_required', true))) {
    throw errors.badRequest(`Please request an invite for ${email} from the organization administrator.`);
  }
  const refused = (await emailDomainCheck(deps.knex, deps.realmId))(email);
  if (refused) throw errors.badRequest(signupRefusal(refused, email));
  const created = invitation
    ? await acceptInvitation(deps, invitation.key, { fullName, password: null })
    : await createUser(deps, null, { email, fullName, password: null, joining: true });
  return created.user;
}
