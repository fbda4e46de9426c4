import type { AppDeps } from '../deps';
import type { User } from '../users/model';
import { invalidAttachment } from './actions';
import { imageRowById } from './previews';
import { attachmentByPathId } from './queries';
import { missingFormats } from './thumbnail-formats';

/**
 * GET /thumbnail/status/<realm id>/<path> (Zulip feature level 479): whether every thumbnail the
 * image should have is made, for an uploader polling after an upload. As in Zulip, only the file's
 * uploader may ask, and only of an image; anything else (someone else's file, a file that is no
 * image or could not be decoded, no such file) is "Invalid attachment". Asking makes nothing.
 */
export async function thumbnailStatus(deps: AppDeps, user: User, realmIdText: string, filename: string): Promise<boolean> {
  const attachment = await attachmentByPathId(deps.knex, deps.realmId, `${realmIdText}/${filename}`);
  if (!attachment || attachment.owner_id !== user.id) throw invalidAttachment();
  const image = await imageRowById(deps.knex, attachment.id);
  if (!image) throw invalidAttachment();
  return missingFormats(image, image.thumbnails).length === 0;
}
