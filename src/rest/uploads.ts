import { createAttachment, deleteAttachment } from '../core/uploads/actions';
import { accessUpload, uploadContentType } from '../core/uploads/downloads';
import { attachmentsOwnedBy, uploadSpaceUsed } from '../core/uploads/queries';
import { temporaryUrl } from '../core/uploads/signed-urls';
import { thumbnailStatus } from '../core/uploads/thumbnail-status';
import { fileStore } from '../core/uploads/stores';
import { attachmentDicts } from '../core/uploads/view';
import { endpoint, p } from './endpoint';
import type { Route } from './router';
import { receiveOneFile } from './upload-body';

const MIB = 1024 * 1024;

export const uploadRoutes: Route[] = [
  {
    method: 'POST',
    path: '/user_uploads',
    // The web app uploads at /json/user_uploads with its session.
    browser: true,
    endpoint: endpoint({
      streamsBody: true,
      params: {},
      handler: async ({ deps, user, req }) => {
        const { maxFileUploadSizeMib, maxRequestBodyBytes } = deps.config;
        // The file plus its multipart framing; the file's own limit is checked as it streams.
        const maxBody = Math.max(maxRequestBodyBytes, (maxFileUploadSizeMib + 1) * MIB);
        const file = await receiveOneFile(req, fileStore(deps.config), maxFileUploadSizeMib, maxBody);
        const result = await createAttachment(deps, user, file.staged, file.filename, uploadContentType(file.filename, file.mimeType));
        return { uri: result.url, url: result.url, filename: result.filename };
      },
    }),
  },
  {
    method: 'GET',
    path: '/user_uploads/:realm_id_str/*filename',
    endpoint: endpoint({
      params: { realm_id_str: p.path.string(), filename: p.path.string() },
      handler: async ({ deps, user, params }) => {
        const attachment = await accessUpload(deps, user, params.realm_id_str, params.filename);
        return { url: await temporaryUrl(deps, attachment.path_id) };
      },
    }),
  },
  {
    method: 'GET',
    path: '/thumbnail/status/:realm_id_str/*filename',
    endpoint: endpoint({
      params: { realm_id_str: p.path.string(), filename: p.path.string() },
      handler: async ({ deps, user, params }) => ({ has_thumbnail: await thumbnailStatus(deps, user, params.realm_id_str, params.filename) }),
    }),
  },
  {
    method: 'GET',
    path: '/attachments',
    endpoint: endpoint({
      params: {},
      handler: async ({ deps, user }) => ({
        attachments: await attachmentDicts(deps.knex, await attachmentsOwnedBy(deps.knex, user.id)),
        upload_space_used: await uploadSpaceUsed(deps.knex, deps.realmId),
      }),
    }),
  },
  {
    method: 'DELETE',
    path: '/attachments/:attachment_id',
    endpoint: endpoint({
      params: { attachment_id: p.path.int() },
      handler: async ({ deps, user, params }) => {
        await deleteAttachment(deps, user, params.attachment_id);
      },
    }),
  },
];
