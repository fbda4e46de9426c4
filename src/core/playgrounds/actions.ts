import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { isUniqueViolation } from '../../db/connect';
import { isRowId } from '../../db/ids';
import { inTransaction, UnitOfWork } from '../../db/unit-of-work';
import { errors } from '../../errors';
import { checkNotBlank, FieldErrors, INVALID_URL_TEMPLATE } from '../linkifiers/validation';
import { parseUrlTemplate } from '../linkifiers/template';
import { activeUserIds, requireAdmin } from '../users/access';
import type { User } from '../users/model';
import { RealmPlayground } from './model';
import { listPlaygrounds } from './queries';
import { checkPygmentsLanguage } from './validation';

/** The only code that changes code playgrounds; administrators only. Every change tells all active users. */

export interface PlaygroundInput {
  name: string;
  pygmentsLanguage: string;
  urlTemplate: string;
}

const DUPLICATE = 'Realm playground with this Realm, Pygments language and Name already exists.';

async function announce(deps: AppDeps, uow: UnitOfWork): Promise<void> {
  const playgrounds = await listPlaygrounds(uow.trx, deps.realmId);
  uow.emit({ type: 'realm_playgrounds', realm_playgrounds: playgrounds }, await activeUserIds(uow.trx, deps.realmId));
}

/** Zulip's checks, in its order: blank fields, the template, its one `code` variable, uniqueness. */
async function checkPlayground(db: Knex, realmId: number, input: PlaygroundInput): Promise<void> {
  const found = new FieldErrors();
  const template = checkNotBlank(found, 'url_template', input.urlTemplate) ? parseUrlTemplate(input.urlTemplate) : parseUrlTemplate('');
  if (input.urlTemplate !== '' && !template) found.add('url_template', INVALID_URL_TEMPLATE);
  const named = checkNotBlank(found, 'name', input.name);
  const languaged = checkNotBlank(found, 'pygments_language', input.pygmentsLanguage);
  if (template) {
    if (!template.variableNames.includes('code')) found.add('__all__', 'Missing the required variable "code" in the URL template');
    else if (template.variableNames.length !== 1) found.add('__all__', '"code" should be the only variable present in the URL template');
  }
  if (named && languaged) {
    const taken = await db('realm_playgrounds').where({ realm_id: realmId, pygments_language: input.pygmentsLanguage, name: input.name }).first('id');
    if (taken) found.add('__all__', DUPLICATE);
  }
  if (!found.empty) throw found.toError();
}

/** POST /realm/playgrounds. */
export async function addPlayground(deps: AppDeps, actor: User, raw: PlaygroundInput): Promise<number> {
  requireAdmin(actor);
  checkPygmentsLanguage(raw.pygmentsLanguage);
  const input = { name: raw.name.trim(), pygmentsLanguage: raw.pygmentsLanguage.trim(), urlTemplate: raw.urlTemplate.trim() };
  return inTransaction(deps, deps.realmId, async (uow) => {
    await checkPlayground(uow.trx, deps.realmId, input);
    let created: RealmPlayground;
    try {
      created = await RealmPlayground.query(uow.trx).insertAndFetch({
        realm_id: deps.realmId,
        name: input.name,
        pygments_language: input.pygmentsLanguage,
        url_template: input.urlTemplate,
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw errors.badRequest(DUPLICATE, { errors: { __all__: [DUPLICATE] } });
      throw error;
    }
    await announce(deps, uow);
    return created.id;
  });
}

/** DELETE /realm/playgrounds/{id}. */
export async function removePlayground(deps: AppDeps, actor: User, id: number): Promise<void> {
  requireAdmin(actor);
  // Past the id column's range nothing can match (and the database would refuse the value).
  if (!isRowId(id)) throw errors.badRequest('Invalid playground');
  await inTransaction(deps, deps.realmId, async (uow) => {
    const deleted = await uow.trx('realm_playgrounds').where({ id, realm_id: deps.realmId }).delete().returning('id');
    if (deleted.length === 0) throw errors.badRequest('Invalid playground');
    await announce(deps, uow);
  });
}
