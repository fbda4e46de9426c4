import type { AppDeps } from '../deps';
import { isRowId } from '../../db/ids';
import { anyOf } from '../../db/lists';
import { errors } from '../../errors';
import { profileDataFor } from '../profile-fields/queries';
import { User } from './model';
import { canSeeDeliveryEmail, placeholderDomain, userDict, UserDict } from './view';

/** Read side of the users feature: what one viewer may see of the organization's accounts. */
export async function getUserForViewer(
  deps: AppDeps,
  viewer: User,
  idOrEmail: number | string,
  opts: { clientGravatar: boolean; includeCustomProfileFields: boolean },
): Promise<UserDict> {
  const target = typeof idOrEmail === 'number' ? await userById(deps, idOrEmail) : await userByEmailForViewer(deps, viewer, idOrEmail);
  if (!target) throw errors.noSuchUser();
  return userDict(deps.config, viewer, target, {
    clientGravatar: opts.clientGravatar,
    includeProfileData: opts.includeCustomProfileFields,
    profileData: opts.includeCustomProfileFields ? await profileDataFor(deps.knex, deps.realmId, [target.id]) : undefined,
  });
}

/**
 * The user a path segment names, as Zulip's routes under /users/{user_id} and /users/{email}
 * accept either: a number is an id, anything else an address the viewer may use.
 */
export async function userIdForKey(deps: AppDeps, viewer: User, key: string): Promise<number> {
  const target = /^[0-9]+$/.test(key) ? await userById(deps, Number(key)) : await userByEmailForViewer(deps, viewer, key);
  if (!target) throw errors.noSuchUser();
  return target.id;
}

async function userById(deps: AppDeps, id: number): Promise<User | undefined> {
  if (!isRowId(id)) return undefined;
  return User.query(deps.knex).where({ realm_id: deps.realmId, id }).first();
}

/**
 * An address names a user when it is their placeholder, or their real address and the viewer may
 * see it: a hidden address must not be usable to find the account.
 */
async function userByEmailForViewer(deps: AppDeps, viewer: User, email: string): Promise<User | undefined> {
  const wanted = email.trim().toLowerCase();
  const placeholder = /^user(\d+)@(.+)$/.exec(wanted);
  if (placeholder && placeholder[2] === placeholderDomain(deps.config).toLowerCase() && Number.isSafeInteger(Number(placeholder[1]))) {
    return userById(deps, Number(placeholder[1]));
  }
  const target = await User.query(deps.knex).where('realm_id', deps.realmId).whereRaw('lower(delivery_email) = ?', [wanted]).first();
  return target && canSeeDeliveryEmail(viewer, target) ? target : undefined;
}

export async function listUsersForViewer(
  deps: AppDeps,
  viewer: User,
  opts: { clientGravatar: boolean; includeCustomProfileFields: boolean },
): Promise<UserDict[]> {
  const users = await User.query(deps.knex).where('realm_id', deps.realmId).orderBy('id');
  const profileData = opts.includeCustomProfileFields ? await profileDataFor(deps.knex, deps.realmId) : undefined;
  return users.map((u) =>
    userDict(deps.config, viewer, u, { clientGravatar: opts.clientGravatar, includeProfileData: opts.includeCustomProfileFields, profileData }),
  );
}

/** Many accounts by id in one statement, for batched object links; unknown ids come back as null. */
export async function getUsersByIdForViewer(deps: AppDeps, viewer: User, ids: readonly number[]): Promise<(UserDict | null)[]> {
  const wanted = ids.filter(isRowId);
  const users =
    wanted.length === 0
      ? []
      : await User.query(deps.knex)
          .where('realm_id', deps.realmId)
          .whereRaw(...anyOf('id', wanted));
  const dicts = new Map(users.map((u) => [u.id, userDict(deps.config, viewer, u, { clientGravatar: false, includeProfileData: false })]));
  return ids.map((id) => dicts.get(id) ?? null);
}
