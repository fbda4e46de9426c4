import busboy from 'busboy';
import { ApiError, errors } from '../errors';
import type { FileStore, StagedFile } from '../core/uploads/storage';
import type { ApiRequest } from './body';
import { bodyTooLarge, watchBodySize } from './body-limits';
import { PARAMETER_LIMIT } from './form-body';

/** One uploaded file, streamed into the file store's staging area while the body arrives. */
export interface ReceivedFile {
  staged: StagedFile;
  filename: string;
  mimeType: string;
}

const MIB = 1024 * 1024;

export const noFile = () => errors.badRequest('You must specify a file to upload');
const tooManyFiles = () => errors.badRequest('You may only upload one file at a time');

/**
 * Reads a multipart body holding one file, writing the file to the store's staging area as it
 * arrives (never the whole file in memory). Refused: a body over `maxBodyBytes` (413, as for any
 * request), a file over `maxFileMib` (Zulip's message), no file or more than one. On any refusal
 * the staged bytes are dropped and the rest of the body is left unread.
 */
export function receiveOneFile(req: ApiRequest, store: FileStore, maxFileMib: number, maxBodyBytes: number): Promise<ReceivedFile> {
  return new Promise((resolve, reject) => {
    const staging: Promise<StagedFile | null>[] = [];
    let failure: ApiError | null = null;
    let info: { filename: string; mimeType: string } | null = null;
    let parser: busboy.Busboy | null = null;
    const discardAll = () => Promise.all(staging).then((files) => Promise.all(files.map((f) => f?.discard())));
    let active: { destroy(error?: Error): void } | null = null;
    const fail = (error: ApiError) => {
      if (failure) return;
      failure = error;
      if (parser) req.unpipe(parser);
      req.pause();
      // A file still arriving is cut off, which makes staging drop what it wrote.
      active?.destroy(new Error('upload refused'));
      // Answered once the staged bytes are gone (cut off, staging settles at once).
      void discardAll().finally(() => reject(error));
    };
    watchBodySize(req, maxBodyBytes, () => fail(bodyTooLarge(maxBodyBytes)));
    if (failure) return;
    if (!(req.headers['content-type'] ?? '').startsWith('multipart/form-data')) {
      fail(noFile());
      return;
    }
    try {
      parser = busboy({
        headers: req.headers,
        defParamCharset: 'utf8',
        limits: { fileSize: maxFileMib * MIB + 1, files: 1, fields: PARAMETER_LIMIT, fieldSize: 64 * 1024 },
      });
    } catch {
      fail(errors.badRequest('Malformed payload'));
      return;
    }
    parser.on('file', (_field, stream, fileInfo) => {
      info = { filename: fileInfo.filename ?? '', mimeType: fileInfo.mimeType };
      active = stream;
      // Staging reports the failure of a cut-off file; this keeps it from being unhandled meanwhile.
      stream.on('error', () => undefined);
      stream.on('end', () => (active = null));
      stream.on('limit', () => fail(errors.badRequest(`Uploaded file is larger than the allowed limit of ${maxFileMib} MiB`)));
      staging.push(
        // One byte past the limit is read, so that a file of exactly the limit is allowed.
        // A full disk is the server's (507); otherwise the body stopped short or broke off.
        store.stage(stream).catch((error: unknown) => {
          fail(error instanceof ApiError ? error : errors.badRequest('Malformed payload'));
          return null;
        }),
      );
    });
    parser.on('filesLimit', () => fail(tooManyFiles()));
    parser.on('fieldsLimit', () => fail(errors.badRequest('Malformed payload')));
    parser.on('error', () => fail(errors.badRequest('Malformed payload')));
    parser.on('close', () => {
      void Promise.all(staging).then(([staged]) => {
        if (failure) return;
        if (!staged || !info) return fail(noFile());
        resolve({ staged, filename: info.filename, mimeType: info.mimeType });
      });
    });
    req.on('error', () => fail(errors.badRequest('Malformed payload')));
    req.pipe(parser);
  });
}
