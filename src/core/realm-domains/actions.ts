import type { AppDeps } from '../deps';
import { inTransaction, UnitOfWork } from '../../db/unit-of-work';
import { errors } from '../../errors';
import { writeRealmSetting, storedRealmSetting } from '../realm/setting-store';
import { activeUserIds } from '../users/access';
import type { User } from '../users/model';
import { isOwnerRole } from '../users/roles';

/** Organization email domains; only owners change them, and every active user hears of it. */
export function requireOwner(actor: User): void {
  if (!isOwnerRole(actor.role)) throw errors.mustBeOwner();
}

/** Zulip's validate_domain, in its order. */
export function checkDomain(raw: string): string {
  const domain = raw.trim().toLowerCase();
  const invalid = (reason: string) => errors.badRequest(`Invalid domain: ${reason}`);
  if (domain.length === 0) throw invalid("Domain can't be empty.");
  if (!domain.includes('.')) throw invalid('Domain must have at least one dot (.)');
  if (domain.length > 255) throw invalid('Domain is too long');
  if (domain.startsWith('.') || domain.endsWith('.')) throw invalid('Domain cannot start or end with a dot (.)');
  for (const part of domain.split('.')) {
    if (!part) throw invalid("Consecutive '.' are not allowed.");
    if (part.startsWith('-') || part.endsWith('-')) throw invalid("Subdomains cannot start or end with a '-'.");
    if (!/^[a-z0-9-]*$/.test(part)) throw invalid("Domain can only have letters, numbers, '.' and '-'s.");
  }
  return domain;
}

const noEntry = (domain: string) => errors.badRequest(`No entry found for domain ${domain}.`);

async function emitToAll(uow: UnitOfWork, realmId: number, event: Record<string, unknown> & { type: string }): Promise<void> {
  uow.emit(event, await activeUserIds(uow.trx, realmId));
}

export async function addRealmDomain(deps: AppDeps, actor: User, rawDomain: string, allowSubdomains: boolean): Promise<{ id: number; domain: string }> {
  requireOwner(actor);
  const domain = checkDomain(rawDomain);
  return inTransaction(deps, deps.realmId, async (uow) => {
    const [row] = await uow
      .trx('realm_domains')
      .insert({ realm_id: deps.realmId, domain, allow_subdomains: allowSubdomains })
      .onConflict(['realm_id', 'domain'])
      .ignore()
      .returning('id');
    if (!row) throw errors.badRequest(`The domain ${domain} is already a part of your organization.`);
    await emitToAll(uow, deps.realmId, { type: 'realm_domains', op: 'add', realm_domain: { domain, allow_subdomains: allowSubdomains } });
    return { id: Number(typeof row === 'object' ? row.id : row), domain };
  });
}

export async function changeRealmDomain(deps: AppDeps, actor: User, domain: string, allowSubdomains: boolean): Promise<void> {
  requireOwner(actor);
  await inTransaction(deps, deps.realmId, async (uow) => {
    const updated = await uow.trx('realm_domains').where({ realm_id: deps.realmId, domain }).update({ allow_subdomains: allowSubdomains }).returning('id');
    if (updated.length === 0) throw noEntry(domain);
    await emitToAll(uow, deps.realmId, { type: 'realm_domains', op: 'change', realm_domain: { domain, allow_subdomains: allowSubdomains } });
  });
}

/** Removing the last domain also lifts the restriction to the organization's domains (as Zulip does). */
export async function removeRealmDomain(deps: AppDeps, actor: User, domain: string): Promise<void> {
  requireOwner(actor);
  await inTransaction(deps, deps.realmId, async (uow) => {
    const db = uow.trx;
    const removed = await db('realm_domains').where({ realm_id: deps.realmId, domain }).delete().returning('id');
    if (removed.length === 0) throw noEntry(domain);
    await emitToAll(uow, deps.realmId, { type: 'realm_domains', op: 'remove', domain });
    const left = await db('realm_domains').where({ realm_id: deps.realmId }).first('id');
    if (!left && (await storedRealmSetting(db, deps.realmId, 'emails_restricted_to_domains', false))) {
      await writeRealmSetting(db, deps.realmId, 'emails_restricted_to_domains', false);
      await emitToAll(uow, deps.realmId, { type: 'realm', op: 'update', property: 'emails_restricted_to_domains', value: false });
    }
  });
}
