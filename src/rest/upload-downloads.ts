import { pipeline } from 'node:stream';
import type { Request, Response } from 'express';
import type { AppDeps } from '../core/deps';
import { ApiError } from '../errors';
import { accessUpload, fileNotFound } from '../core/uploads/downloads';
import { contentDisposition, isInlineType } from '../core/uploads/paths';
import { attachmentByPathId, AttachmentRow } from '../core/uploads/queries';
import { pathIdFromToken } from '../core/uploads/signed-urls';
import { fileStore } from '../core/uploads/stores';
import { thumbnailToServe } from '../core/uploads/thumbnail-serving';
import { authenticateSession } from '../core/accounts/sessions';
import type { User } from '../core/users/model';
import { sessionSecretOf } from '../web/session-auth';
import { admit } from './admit';
import { sendError, sendInternalError } from './router';

/**
 * Uploaded files at Zulip's URLs: /user_uploads/<realm id>/<path> with the API's Basic
 * credentials, /user_uploads/download/... (always as a download), the credential-free
 * /user_uploads/temporary/<token>/<name> links, and images' thumbnails at
 * /user_uploads/thumbnail/<realm id>/<path>/<format> (readable by whoever may read the original). Only types that cannot run script are shown in
 * place; everything else is sent as an attachment, and never sniffed. Without an Authorization
 * header, the web app's session cookie is accepted, as Zulip accepts it (a GET here changes
 * nothing, so no CSRF token is asked for).
 */
async function sendFile(deps: AppDeps, res: Response, attachment: AttachmentRow, forceDownload: boolean): Promise<void> {
  const file = await fileStore(deps.config).read(attachment.path_id);
  if (!file) throw fileNotFound();
  const inline = !forceDownload && isInlineType(attachment.content_type);
  res.status(200);
  res.setHeader('Content-Type', inline || isInlineType(attachment.content_type) ? attachment.content_type : 'application/octet-stream');
  res.setHeader('Content-Length', String(file.size));
  res.setHeader('Content-Disposition', contentDisposition(inline ? 'inline' : 'attachment', attachment.file_name));
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Security-Policy', "default-src 'none'; img-src 'self'; media-src 'self'; object-src 'self'; style-src 'unsafe-inline'; sandbox");
  res.setHeader('Cache-Control', 'private, max-age=31536000, immutable');
  if (res.req.method === 'HEAD') {
    res.end();
    return;
  }
  // A client that goes away releases the file's stream (with S3, its connection); a store that
  // fails mid-file cuts the response short.
  pipeline(file.open(), res, () => undefined);
}

function answering(handler: (req: Request, res: Response) => Promise<void>) {
  return (req: Request, res: Response): void => {
    handler(req, res).catch((error: unknown) => {
      if (res.headersSent) return;
      if (error instanceof ApiError) sendError(res, error);
      else sendInternalError(res, error, req);
    });
  };
}

const restOf = (param: unknown): string => (Array.isArray(param) ? param.join('/') : String(param ?? ''));

/** Who asks for a file: the Basic credentials, else the session cookie. */
async function downloader(deps: AppDeps, req: Request, res: Response): Promise<User> {
  const secret = req.headers.authorization === undefined ? sessionSecretOf(req) : undefined;
  const user =
    secret === undefined ? await admit(deps, req, res, 'required') : await admit(deps, req, res, 'required', () => authenticateSession(deps, secret));
  return user!;
}

export function serveUpload(deps: AppDeps, options: { forceDownload: boolean }) {
  return answering(async (req, res) => {
    const user = await downloader(deps, req, res);
    const attachment = await accessUpload(deps, user, String(req.params.realmId), restOf(req.params.path));
    await sendFile(deps, res, attachment, options.forceDownload);
  });
}

export function serveTemporaryUpload(deps: AppDeps) {
  return answering(async (req, res) => {
    const pathId = await pathIdFromToken(deps, String(req.params.token));
    const attachment = pathId === null ? undefined : await attachmentByPathId(deps.knex, deps.realmId, pathId);
    if (!attachment) throw fileNotFound();
    await sendFile(deps, res, attachment, false);
  });
}

export function serveThumbnail(deps: AppDeps) {
  return answering(async (req, res) => {
    const user = await downloader(deps, req, res);
    const segments = restOf(req.params.path).split('/');
    const format = segments.pop() ?? '';
    const attachment = await accessUpload(deps, user, String(req.params.realmId), segments.join('/'));
    const thumbnail = await thumbnailToServe(deps, attachment, format);
    const file = await fileStore(deps.config).read(thumbnail.key);
    if (!file) throw fileNotFound();
    res.status(200);
    res.setHeader('Content-Type', thumbnail.contentType);
    res.setHeader('Content-Length', String(file.size));
    res.setHeader('Content-Disposition', contentDisposition('inline', thumbnail.name));
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cache-Control', 'private, max-age=31536000, immutable');
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    const stream = file.open();
    stream.on('error', () => res.destroy());
    stream.pipe(res);
  });
}
