import crypto from 'node:crypto';
import type { AppDeps } from '../deps';
import { Realm } from './model';

export async function getRealm(deps: AppDeps): Promise<Realm> {
  return Realm.query(deps.knex).findById(deps.realmId).throwIfNotFound();
}

/** The organization icon: the uploaded one, else an identicon derived from the realm's id string. */
export function realmIconUrl(realm: Pick<Realm, 'id' | 'string_id' | 'icon_source' | 'icon_version'>): string {
  if (realm.icon_source === 'U') return `/user_avatars/${realm.id}/realm/icon.png?version=${realm.icon_version}`;
  const digest = crypto.createHash('md5').update(realm.string_id.toLowerCase()).digest('hex');
  return `https://secure.gravatar.com/avatar/${digest}?d=identicon&version=1`;
}

export type LogoKind = 'logo' | 'night_logo';

/** An organization logo (day or night): the uploaded one, else Zulip's default. */
export function realmLogoUrl(
  realm: Pick<Realm, 'id' | 'logo_source' | 'logo_version' | 'night_logo_source' | 'night_logo_version'>,
  kind: LogoKind,
  externalUrl: string,
): string {
  const source = kind === 'logo' ? realm.logo_source : realm.night_logo_source;
  const version = kind === 'logo' ? realm.logo_version : realm.night_logo_version;
  if (source === 'U') return `/user_avatars/${realm.id}/realm/${kind}.png?version=${version}`;
  return `${externalUrl}/static/images/logo/zulip-org-logo.svg?version=0`;
}
