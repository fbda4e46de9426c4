import type { AppDeps } from '../../deps';
import { errors } from '../../errors';
import { User } from './model';
import { userDict, UserDict } from './view';
import { highestReceivedMessageId } from '../messages/state';

/** Read side of the users feature: what one viewer may see of the organization's accounts. */
export async function getUserForViewer(
  deps: AppDeps,
  viewer: User,
  idOrEmail: number | string,
  opts: { clientGravatar: boolean; includeCustomProfileFields: boolean },
): Promise<UserDict> {
  const query = User.query(deps.knex).where('realm_id', deps.realmId);
  if (typeof idOrEmail === 'number') query.where('id', idOrEmail);
  else query.whereRaw('lower(delivery_email) = lower(?)', [idOrEmail]);
  const target = await query.first();
  // An address the viewer may not see must not be usable to find the account.
  if (!target || (typeof idOrEmail === 'string' && viewer.id !== target.id && userDict(deps.config, viewer, target, { clientGravatar: false, includeProfileData: false }).delivery_email === null)) {
    throw errors.noSuchUser();
  }
  return userDict(deps.config, viewer, target, {
    clientGravatar: opts.clientGravatar,
    includeProfileData: opts.includeCustomProfileFields,
  });
}

export async function listUsersForViewer(
  deps: AppDeps,
  viewer: User,
  opts: { clientGravatar: boolean; includeCustomProfileFields: boolean },
): Promise<UserDict[]> {
  const users = await User.query(deps.knex).where('realm_id', deps.realmId).orderBy('id');
  return users.map((u) =>
    userDict(deps.config, viewer, u, { clientGravatar: opts.clientGravatar, includeProfileData: opts.includeCustomProfileFields }),
  );
}

/** Highest message id the user has received; -1 while they have none. */
export async function maxMessageId(deps: AppDeps, user: User): Promise<number> {
  return highestReceivedMessageId(deps.knex, user.id);
}
