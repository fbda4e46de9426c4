import type { AppDeps } from '../deps';
import { isUniqueViolation } from '../../db/connect';
import { inTransaction } from '../../db/unit-of-work';
import { errors } from '../../errors';
import type { User } from '../users/model';
import { alreadyExistsError, builtInNameError, checkNonBlank, findOwnView, isBuiltInView, nameInUse } from './access';
import { NavigationView } from './model';
import { navigationViewDict } from './view';

export interface NewNavigationView {
  fragment: string;
  isPinned: boolean;
  name?: string;
}

/** Adds a custom view, or the user's settings for a built-in one. */
export async function addNavigationView(deps: AppDeps, user: User, input: NewNavigationView): Promise<void> {
  const fragment = checkNonBlank(input.fragment, 'fragment');
  const name = input.name === undefined ? null : checkNonBlank(input.name, 'name');
  if (isBuiltInView(fragment)) {
    if (name !== null) throw builtInNameError();
  } else if (name === null) {
    throw errors.badRequest('Custom views must have a valid name.');
  }
  await inTransaction(deps, deps.realmId, async (uow) => {
    if (await NavigationView.query(uow.trx).findOne({ user_id: user.id, realm_id: deps.realmId, fragment })) throw alreadyExistsError();
    if (name !== null && (await nameInUse(uow.trx, user, name))) throw alreadyExistsError();
    let view: NavigationView;
    try {
      view = await NavigationView.query(uow.trx).insertAndFetch({
        realm_id: deps.realmId,
        user_id: user.id,
        fragment,
        is_pinned: input.isPinned,
        name,
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw alreadyExistsError();
      throw error;
    }
    uow.emit({ type: 'navigation_view', op: 'add', navigation_view: navigationViewDict(view) }, [user.id]);
  });
}

export async function updateNavigationView(deps: AppDeps, user: User, rawFragment: string, changes: { isPinned?: boolean; name?: string }): Promise<void> {
  const fragment = checkNonBlank(rawFragment, 'fragment');
  const name = changes.name === undefined ? undefined : checkNonBlank(changes.name, 'name');
  if (name !== undefined && isBuiltInView(fragment)) throw builtInNameError();
  await inTransaction(deps, deps.realmId, async (uow) => {
    if (name !== undefined && (await nameInUse(uow.trx, user, name))) throw alreadyExistsError();
    const view = await findOwnView(uow.trx, user, fragment);
    const data: { name?: string; is_pinned?: boolean } = {};
    if (name !== undefined) data.name = name;
    if (changes.isPinned !== undefined) data.is_pinned = changes.isPinned;
    if (Object.keys(data).length > 0) await NavigationView.query(uow.trx).patch(data).where('id', view.id);
    uow.emit({ type: 'navigation_view', op: 'update', fragment, data }, [user.id]);
  });
}

export async function removeNavigationView(deps: AppDeps, user: User, rawFragment: string): Promise<void> {
  const fragment = checkNonBlank(rawFragment, 'fragment');
  await inTransaction(deps, deps.realmId, async (uow) => {
    const view = await findOwnView(uow.trx, user, fragment);
    await NavigationView.query(uow.trx).deleteById(view.id);
    uow.emit({ type: 'navigation_view', op: 'remove', fragment }, [user.id]);
  });
}
