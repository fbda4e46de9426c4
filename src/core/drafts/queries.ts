import type { AppDeps } from '../deps';
import type { User } from '../users/model';
import { requireDraftsSync } from './access';
import { Draft } from './model';
import { draftDict, DraftDict } from './view';

/** The user's drafts, oldest edit first (GET /drafts). */
export async function listDrafts(deps: AppDeps, user: User): Promise<DraftDict[]> {
  await requireDraftsSync(deps.knex, user);
  const drafts = await Draft.query(deps.knex)
    .where({ realm_id: deps.realmId, user_id: user.id })
    .orderBy([{ column: 'last_edit_time' }, { column: 'id' }]);
  return drafts.map(draftDict);
}
