import type { Knex } from 'knex';
import { storedRealmSetting } from '../realm/setting-store';

export interface RealmDomainDict {
  domain: string;
  allow_subdomains: boolean;
}

/** The organization's email domains, in alphabetical order. */
export async function realmDomains(db: Knex, realmId: number): Promise<RealmDomainDict[]> {
  const rows: RealmDomainDict[] = await db('realm_domains').where({ realm_id: realmId }).orderBy('domain').select('domain', 'allow_subdomains');
  return rows.map((r) => ({ domain: r.domain, allow_subdomains: Boolean(r.allow_subdomains) }));
}

/**
 * Whether an address may join (Zulip's email_allowed_for_realm): anything goes unless
 * emails_restricted_to_domains is on; then its domain must be one of the organization's, or a
 * subdomain of one that allows subdomains.
 */
export async function emailDomainCheck(db: Knex, realmId: number): Promise<(email: string) => boolean> {
  if (!(await storedRealmSetting(db, realmId, 'emails_restricted_to_domains', false))) return () => true;
  const domains = await realmDomains(db, realmId);
  return (email) => {
    const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
    return domains.some((d) => d.domain === domain || (d.allow_subdomains && domain.endsWith(`.${d.domain}`)));
  };
}
