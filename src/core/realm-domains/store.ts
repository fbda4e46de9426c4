import disposableDomainList from 'disposable-email-domains/index.json';
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

/** Why an address may not join; null when it may. */
export type EmailRefusal = 'outside_domain' | 'disposable' | 'plus';

let disposableDomains: ReadonlySet<string> | undefined;

/** Throwaway-mailbox domains, from a maintained list (Zulip uses the same kind of list). */
function isDisposableDomain(domain: string): boolean {
  disposableDomains ??= new Set(disposableDomainList as string[]);
  return disposableDomains.has(domain);
}

/**
 * Whether an address may join (Zulip's email_allowed_for_realm). Unless
 * emails_restricted_to_domains is on, anything goes but a throwaway-mailbox domain while
 * disallow_disposable_email_addresses is on. When it is on, the domain must be one of the
 * organization's, or a subdomain of one that allows subdomains, and the local part may not hold a "+".
 */
export async function emailDomainCheck(db: Knex, realmId: number): Promise<(email: string) => EmailRefusal | null> {
  const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  if (!(await storedRealmSetting(db, realmId, 'emails_restricted_to_domains', false))) {
    if (!(await storedRealmSetting(db, realmId, 'disallow_disposable_email_addresses', true))) return () => null;
    return (email) => (isDisposableDomain(domainOf(email)) ? 'disposable' : null);
  }
  const domains = await realmDomains(db, realmId);
  return (email) => {
    if (email.slice(0, email.lastIndexOf('@')).includes('+')) return 'plus';
    const domain = domainOf(email);
    return domains.some((d) => d.domain === domain || (d.allow_subdomains && domain.endsWith(`.${d.domain}`))) ? null : 'outside_domain';
  };
}
