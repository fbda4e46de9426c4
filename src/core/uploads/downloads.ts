import mime from 'mime-types';
import type { AppDeps } from '../deps';
import { ApiError } from '../../errors';
import type { User } from '../users/model';
import { canReadAttachment } from './access';
import { AttachmentRow, attachmentByPathId } from './queries';

export const fileNotFound = () => new ApiError('NOT_FOUND', 'File not found.', 404);
export const notAuthorizedForFile = () => new ApiError('BAD_REQUEST', 'You are not authorized to view this file.', 403);

/** The attachment at /user_uploads/<realm id>/<path>, if `user` may read it (else Zulip's refusals). */
export async function accessUpload(deps: AppDeps, user: User, realmIdText: string, path: string): Promise<AttachmentRow> {
  if (!/^\d+$/.test(realmIdText) || Number(realmIdText) !== deps.realmId) throw fileNotFound();
  const attachment = await attachmentByPathId(deps.knex, deps.realmId, `${realmIdText}/${path}`);
  if (!attachment) throw fileNotFound();
  if (!(await canReadAttachment(deps.knex, user, attachment))) throw notAuthorizedForFile();
  return attachment;
}

/** The type recorded for an upload: what the client declared, else a guess from the name. */
export function uploadContentType(fileName: string, declared: string): string {
  const type = declared.trim().toLowerCase();
  if (type !== '' && type !== 'application/octet-stream' && /^[a-z0-9.+-]+\/[a-z0-9.+-]+$/.test(type)) return type;
  return mime.lookup(fileName) || 'application/octet-stream';
}
