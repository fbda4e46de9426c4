import type { AppDeps } from '../deps';
import { ApiError } from '../../errors';
import { emailDomainCheck } from '../realm-domains/store';
import { createUser } from '../users/actions';
import { User } from '../users/model';
import { checkFullName } from '../users/validation';
import { ldapAuthenticate } from './ldap';

/**
 * The account a directory login opens: the one with the directory's address, created at first
 * login when PARLEY_LDAP_CREATE_USERS allows it. Null when the directory refuses the login or
 * there is no account to open (deactivated accounts stay closed).
 */
export async function ldapLogin(deps: AppDeps, username: string, password: string): Promise<User | null> {
  const config = deps.config.ldap;
  if (!config) return null;
  const person = await ldapAuthenticate(config, username, password);
  if (!person) return null;
  const existing = await User.query(deps.knex)
    .where({ realm_id: deps.realmId, is_bot: false })
    .whereRaw('lower(delivery_email) = lower(?)', [person.email])
    .first();
  if (existing) return existing.is_active ? existing : null;
  if (!config.createUsers) return null;
  // As in Zulip, the directory vouches for the person (invite_required does not apply), but the
  // organization's domain rules do.
  if ((await emailDomainCheck(deps.knex, deps.realmId))(person.email)) return null;
  try {
    const { user } = await createUser(deps, null, {
      email: person.email,
      fullName: usableName(person.fullName, person.email),
      password: null,
      joining: true,
    });
    return user;
  } catch (error) {
    // An address the organization cannot take (malformed, or taken meanwhile) opens nothing.
    if (error instanceof ApiError) return null;
    throw error;
  }
}

function usableName(fullName: string, email: string): string {
  for (const candidate of [fullName, email.split('@')[0]]) {
    try {
      return checkFullName(candidate);
    } catch {
      // Try the next one.
    }
  }
  return 'Directory user';
}
