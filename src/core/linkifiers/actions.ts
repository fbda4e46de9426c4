import type { AppDeps } from '../deps';
import { isUniqueViolation } from '../../db/connect';
import { inTransaction, UnitOfWork } from '../../db/unit-of-work';
import { errors } from '../../errors';
import { activeUserIds, requireAdmin } from '../users/access';
import type { User } from '../users/model';
import { forgetRealmLinkifiers } from './cache';
import { RealmFilter } from './model';
import { listLinkifiers } from './queries';
import { optionalText } from './reverse';
import { checkLinkifier, LinkifierFields } from './validation';

/**
 * The only code that changes linkifiers; administrators only. Every change tells all active users
 * the whole ordered list and drops this process's cached copy once committed.
 */

const notFound = () => errors.badRequest('Linkifier not found.');

async function announce(deps: AppDeps, uow: UnitOfWork): Promise<void> {
  const realmLinkifiers = await listLinkifiers(uow.trx, deps.realmId);
  uow.emit({ type: 'realm_linkifiers', realm_linkifiers: realmLinkifiers }, await activeUserIds(uow.trx, deps.realmId));
  uow.afterCommit(() => forgetRealmLinkifiers(deps.knex, deps.realmId));
}

async function lockLinkifiers(uow: UnitOfWork, realmId: number): Promise<RealmFilter[]> {
  return RealmFilter.query(uow.trx).where('realm_id', realmId).orderBy('id').forUpdate();
}

export interface LinkifierInput {
  pattern: string;
  urlTemplate: string;
  /** Absent: unchanged (new linkifiers: none); empty: none. */
  exampleInput?: string | null;
  reverseTemplate?: string | null;
  alternativeUrlTemplates?: string[];
}

/** The submitted linkifier, over the current one when editing; texts trimmed, blanks dropped. */
function submitted(input: LinkifierInput, current?: RealmFilter): LinkifierFields {
  const keep = <T>(value: T | undefined, old: T): T => (value === undefined ? old : value);
  return {
    pattern: input.pattern.trim(),
    urlTemplate: input.urlTemplate.trim(),
    exampleInput: optionalText(keep(input.exampleInput, current?.example_input ?? null)),
    reverseTemplate: optionalText(keep(input.reverseTemplate, current?.reverse_template ?? null)),
    alternativeUrlTemplates: keep(input.alternativeUrlTemplates, current?.alternative_url_templates ?? [])
      .map((t) => t.trim())
      .filter((t) => t !== ''),
  };
}

const columns = (l: LinkifierFields) => ({
  pattern: l.pattern,
  url_template: l.urlTemplate,
  example_input: l.exampleInput,
  reverse_template: l.reverseTemplate,
  // jsonb: a JS array would be sent as a PostgreSQL array.
  alternative_url_templates: JSON.stringify(l.alternativeUrlTemplates) as unknown as string[],
});

/** POST /realm/filters: the new linkifier applies after the existing ones. */
export async function addLinkifier(deps: AppDeps, actor: User, input: LinkifierInput): Promise<number> {
  requireAdmin(actor);
  const linkifier = submitted(input);
  return inTransaction(deps, deps.realmId, async (uow) => {
    const existing = await lockLinkifiers(uow, deps.realmId);
    await checkLinkifier(uow.trx, deps.realmId, linkifier);
    const order = existing.length === 0 ? 0 : Math.max(...existing.map((l) => l.order)) + 1;
    const created = await insertUnique(async () => RealmFilter.query(uow.trx).insertAndFetch({ realm_id: deps.realmId, ...columns(linkifier), order }));
    await announce(deps, uow);
    return created.id;
  });
}

/** PATCH /realm/filters/{id}: a new pattern and template, same place in the order. */
export async function updateLinkifier(deps: AppDeps, actor: User, id: number, input: LinkifierInput): Promise<void> {
  requireAdmin(actor);
  await inTransaction(deps, deps.realmId, async (uow) => {
    const existing = (await lockLinkifiers(uow, deps.realmId)).find((l) => l.id === id);
    if (!existing) throw notFound();
    const linkifier = submitted(input, existing);
    await checkLinkifier(uow.trx, deps.realmId, linkifier, id);
    await insertUnique(async () => RealmFilter.query(uow.trx).patch(columns(linkifier)).where('id', id));
    await announce(deps, uow);
  });
}

/** DELETE /realm/filters/{id}. */
export async function removeLinkifier(deps: AppDeps, actor: User, id: number): Promise<void> {
  requireAdmin(actor);
  await inTransaction(deps, deps.realmId, async (uow) => {
    const existing = (await lockLinkifiers(uow, deps.realmId)).find((l) => l.id === id);
    if (!existing) throw notFound();
    await RealmFilter.query(uow.trx).deleteById(id);
    await announce(deps, uow);
  });
}

/** PATCH /realm/linkifiers: the ids of all linkifiers, each once, in their new order. */
export async function reorderLinkifiers(deps: AppDeps, actor: User, orderedIds: number[]): Promise<void> {
  requireAdmin(actor);
  await inTransaction(deps, deps.realmId, async (uow) => {
    if (new Set(orderedIds).size < orderedIds.length) throw errors.badRequest('The ordered list must not contain duplicated linkifiers');
    const existing = await lockLinkifiers(uow, deps.realmId);
    const wanted = new Set(orderedIds);
    if (existing.length !== wanted.size || existing.some((l) => !wanted.has(l.id))) {
      throw errors.badRequest('The ordered list must enumerate all existing linkifiers exactly once');
    }
    // Nothing to reorder: no event, as in Zulip.
    if (existing.length === 0) return;
    for (const [order, id] of orderedIds.entries()) await RealmFilter.query(uow.trx).patch({ order }).where('id', id);
    await announce(deps, uow);
  });
}

/** A concurrent change may take the pattern between the check and the write: same answer as the check. */
async function insertUnique<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw errors.badRequest('Realm filter with this Realm and Pattern already exists.', {
        errors: { __all__: ['Realm filter with this Realm and Pattern already exists.'] },
      });
    }
    throw error;
  }
}
