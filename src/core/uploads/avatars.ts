import { Readable } from 'node:stream';
import type { AppDeps } from '../deps';
import { inTransaction } from '../../db/unit-of-work';
import { errors } from '../../errors';
import { activeUserIds } from '../users/access';
import { User } from '../users/model';
import { mediumAvatarUrl, userDict } from '../users/view';
import { squarePng } from './images';
import { AVATAR_SIZES, defaultAvatarSource } from './jdenticon';
import { fileStore } from './stores';

/**
 * Uploaded avatars, as Zulip keeps them: a 100 px square and a 500 px "medium" one, PNG, made with
 * sharp from the uploaded image. Each upload bumps avatar_version, so every URL names one image;
 * the previous version's files go once the change has committed.
 */
export const MAX_AVATAR_FILE_SIZE_MIB = 5;
const MIB = 1024 * 1024;
const SIZES = AVATAR_SIZES;

export const avatarKey = (userId: number, version: number, size: keyof typeof SIZES) => `avatars/${userId}/${version}${size === 'medium' ? '-medium' : ''}.png`;

export async function storeBytes(deps: AppDeps, key: string, bytes: Buffer): Promise<void> {
  const staged = await fileStore(deps.config).stage(Readable.from([bytes]));
  try {
    await staged.commit(key);
  } catch (error) {
    await staged.discard().catch(() => undefined);
    throw error;
  }
}

function avatarFields(deps: AppDeps, user: User) {
  const url = userDict(deps.config, null, user, { clientGravatar: false, includeProfileData: false }).avatar_url as string;
  return { user_id: user.id, avatar_source: user.avatar_source, avatar_url: url, avatar_url_medium: mediumAvatarUrl(url), avatar_version: user.avatar_version };
}

async function changeAvatar(deps: AppDeps, user: User, source: string, write: (version: number) => Promise<void>): Promise<string> {
  const store = fileStore(deps.config);
  let previous = 0;
  let version = 0;
  const fields = await inTransaction(deps, deps.realmId, async (uow) => {
    const current = await User.query(uow.trx).findById(user.id).forUpdate();
    if (!current) throw errors.noSuchUser();
    previous = current.avatar_source === 'U' ? current.avatar_version : 0;
    version = current.avatar_version + 1;
    // The new files exist before the row names them.
    await write(version);
    await User.query(uow.trx).patch({ avatar_source: source, avatar_version: version }).where({ id: user.id });
    const changed = Object.assign(new User(), current, { avatar_source: source, avatar_version: version });
    const person = avatarFields(deps, changed);
    uow.emit({ type: 'realm_user', op: 'update', person }, await activeUserIds(uow.trx, deps.realmId));
    return person;
  }).catch(async (error: unknown) => {
    // Best effort: what cannot be deleted now, the orphan sweep finds.
    if (version > 0 && source === 'U')
      for (const size of ['small', 'medium'] as const) await store.delete(avatarKey(user.id, version, size)).catch(() => undefined);
    throw error;
  });
  if (previous > 0) for (const size of ['small', 'medium'] as const) await store.delete(avatarKey(user.id, previous, size)).catch(() => undefined);
  return fields.avatar_url;
}

/** POST /users/me/avatar: one image file; answers the new avatar URL. */
export async function uploadAvatar(deps: AppDeps, user: User, files: { data: Buffer }[]): Promise<string> {
  if (files.length !== 1) throw errors.badRequest('You must upload exactly one avatar.');
  const [file] = files;
  if (file.data.length > MAX_AVATAR_FILE_SIZE_MIB * MIB) {
    throw errors.badRequest(`Uploaded file is larger than the allowed limit of ${MAX_AVATAR_FILE_SIZE_MIB} MiB`);
  }
  const small = await squarePng(file.data, SIZES.small);
  const medium = await squarePng(file.data, SIZES.medium);
  return changeAvatar(deps, user, 'U', async (version) => {
    await storeBytes(deps, avatarKey(user.id, version, 'small'), small);
    await storeBytes(deps, avatarKey(user.id, version, 'medium'), medium);
  });
}

/** DELETE /users/me/avatar: back to the organization's default picture (gravatar or generated). */
export async function deleteAvatar(deps: AppDeps, user: User): Promise<string> {
  return changeAvatar(deps, user, await defaultAvatarSource(deps.knex, deps.realmId), async () => undefined);
}
