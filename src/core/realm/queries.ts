import crypto from 'node:crypto';
import type { AppDeps } from '../../deps';
import { Realm } from './model';

export async function getRealm(deps: AppDeps): Promise<Realm> {
  return Realm.query(deps.knex).findById(deps.realmId).throwIfNotFound();
}

/** Default organization icon: an identicon derived from the realm's id string. */
export function realmIconUrl(realm: Realm): string {
  const digest = crypto.createHash('md5').update(realm.string_id.toLowerCase()).digest('hex');
  return `https://secure.gravatar.com/avatar/${digest}?d=identicon&version=1`;
}
