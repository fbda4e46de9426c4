import crypto from 'node:crypto';
import type { AppDeps } from '../deps';
import { inTransaction, UnitOfWork } from '../../db/unit-of-work';
import { ApiError, errors } from '../../errors';
import type { UploadedFile } from '../uploads/uploaded-file';
import { activeUserIds } from '../users/access';
import type { User } from '../users/model';
import { isAdminRole, isGuestRole } from '../users/roles';
import { holdsStoredRealmSetting } from '../realm/permission';
import { emojiCodeForName } from './data';
import { RealmEmoji } from './model';
import { listRealmEmoji } from './queries';
import { checkValidEmojiName } from './validation';

export const MAX_EMOJI_FILE_SIZE_MIB = 5;

/** Image types accepted for custom emoji, recognized by their leading bytes. */
const IMAGE_TYPES: { contentType: string; ext: string; matches: (b: Buffer) => boolean }[] = [
  { contentType: 'image/png', ext: '.png', matches: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { contentType: 'image/gif', ext: '.gif', matches: (b) => /^GIF8[79]a/.test(b.subarray(0, 6).toString('latin1')) },
  { contentType: 'image/jpeg', ext: '.jpg', matches: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  {
    contentType: 'image/webp',
    ext: '.webp',
    matches: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  },
];

/** Adds a custom emoji from one uploaded image; everyone in the organization learns the new set. */
export async function uploadRealmEmoji(deps: AppDeps, actor: User, rawName: string, files: UploadedFile[]): Promise<void> {
  if (isGuestRole(actor.role)) throw errors.badRequest('Not allowed for guest users');
  if (!(await holdsStoredRealmSetting(deps.knex, actor, 'can_add_custom_emoji_group'))) throw errors.insufficientPermission();
  const name = rawName.trim().replace(/ /g, '_');
  checkValidEmojiName(name);
  await inTransaction(deps, deps.realmId, async (uow) => {
    const taken = await RealmEmoji.query(uow.trx).select('id').findOne({ realm_id: deps.realmId, name, deactivated: false });
    if (taken) throw errors.badRequest('A custom emoji with this name already exists.');
    if (files.length !== 1) throw errors.badRequest('You must upload exactly one file.');
    if (emojiCodeForName(name) !== undefined && !isAdminRole(actor.role)) {
      throw errors.badRequest('Only administrators can override built-in emoji.');
    }
    const [file] = files;
    if (file.data.length > MAX_EMOJI_FILE_SIZE_MIB * 1024 * 1024) {
      throw errors.badRequest(`Uploaded file is larger than the allowed limit of ${MAX_EMOJI_FILE_SIZE_MIB} MiB`);
    }
    const type = IMAGE_TYPES.find((t) => t.matches(file.data));
    if (!type) throw new ApiError('BAD_IMAGE', 'Invalid image format', 400);
    await RealmEmoji.query(uow.trx).insert({
      realm_id: deps.realmId,
      name,
      // Random file names keep the images of an organization from being enumerated.
      file_name: `${crypto.randomBytes(4).toString('hex')}${type.ext}`,
      content_type: type.contentType,
      image: file.data,
      author_id: actor.id,
      deactivated: false,
    });
    await emitRealmEmojiUpdate(deps, uow);
  });
}

async function emitRealmEmojiUpdate(deps: AppDeps, uow: UnitOfWork): Promise<void> {
  const realmEmoji = await listRealmEmoji(uow.trx, deps.realmId);
  uow.emit({ type: 'realm_emoji', op: 'update', realm_emoji: realmEmoji }, await activeUserIds(uow.trx, deps.realmId));
}

/**
 * DELETE /realm/emoji/{name}: deactivates the active custom emoji of that name (old messages and
 * reactions keep showing it). Administrators may remove any, others only their own.
 */
export async function deactivateRealmEmoji(deps: AppDeps, actor: User, name: string): Promise<void> {
  await inTransaction(deps, deps.realmId, async (uow) => {
    const emoji = await RealmEmoji.query(uow.trx).select('id', 'author_id').forUpdate().findOne({ realm_id: deps.realmId, name, deactivated: false });
    if (!emoji) throw new ApiError('BAD_REQUEST', `Emoji '${name}' does not exist`, 404);
    if (!isAdminRole(actor.role) && emoji.author_id !== actor.id) {
      throw errors.badRequest('Must be an organization administrator or emoji author');
    }
    await RealmEmoji.query(uow.trx).patch({ deactivated: true }).where('id', emoji.id);
    await emitRealmEmojiUpdate(deps, uow);
  });
}
