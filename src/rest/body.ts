import busboy from 'busboy';
import express from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from '../errors';
import type { UploadedFile } from '../core/uploads/uploaded-file';
import { bodyTooLarge, FILE_LIMIT, tooManyFiles, tooManyParameters, watchBodySize } from './body-limits';
import { isPlainForm, PARAMETER_LIMIT, readPlainForm, TOO_MANY_PARAMETERS } from './form-body';

const malformed = () => new ApiError('BAD_REQUEST', 'Malformed payload', 400);

/** A REST request once its body is parsed. */
export type ApiRequest = IncomingMessage & { body?: Record<string, string>; files?: UploadedFile[]; rawBody?: Buffer };

const urlencodedReaders = new Map<number, ReturnType<typeof express.urlencoded>>();

function urlencodedReader(maxBytes: number) {
  let reader = urlencodedReaders.get(maxBytes);
  if (!reader) {
    reader = express.urlencoded({ extended: false, limit: maxBytes, parameterLimit: PARAMETER_LIMIT });
    urlencodedReaders.set(maxBytes, reader);
  }
  return reader;
}

/**
 * Request bodies arrive form-encoded or as multipart/form-data (zulip-js posts that way). Both become
 * a flat map of strings on req.body; uploaded files are kept in memory on req.files. Nothing over
 * `maxBytes` is read: such a body is refused with 413 as soon as that is known. Null when the
 * request has no body (every GET), so the common case costs no promise.
 */
export function readBody(req: ApiRequest, res: ServerResponse, maxBytes: number): Promise<void> | null {
  if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) return null;
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (error: ApiError) => {
      if (settled) return;
      settled = true;
      reject(error);
    };
    const done = () => {
      if (settled) return;
      settled = true;
      resolve();
    };
    watchBodySize(req, maxBytes, () => {
      // Nothing more is read; the answer closes the connection (closeIfBodyUnread).
      req.unpipe();
      req.pause();
      fail(bodyTooLarge(maxBytes));
    });
    if (settled) return;
    const type = req.headers['content-type'] ?? '';
    if (type.startsWith('multipart/form-data')) {
      readMultipart(req, maxBytes, done, fail);
    } else if (isPlainForm(req, maxBytes)) {
      readPlainForm(req, (fields) => {
        if (fields === TOO_MANY_PARAMETERS) return fail(tooManyParameters());
        if (fields === null) return fail(malformed());
        req.body = fields;
        done();
      });
    } else {
      urlencodedReader(maxBytes)(req as never, res as never, (error?: unknown) => {
        if (!error) return done();
        const { status, type: kind } = error as { status?: number; type?: string };
        if (kind === 'parameters.too.many') fail(tooManyParameters());
        else if (status === 413) fail(bodyTooLarge(maxBytes));
        else fail(malformed());
      });
    }
  });
}

function readMultipart(req: ApiRequest, maxBytes: number, done: () => void, fail: (error: ApiError) => void): void {
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      limits: { fieldSize: maxBytes, fileSize: maxBytes, fields: PARAMETER_LIMIT, files: FILE_LIMIT },
    });
  } catch {
    fail(malformed());
    return;
  }
  const fields: Record<string, string> = {};
  const files: UploadedFile[] = [];
  const stop = (error: ApiError) => {
    req.unpipe(parser);
    fail(error);
  };
  parser.on('field', (name, value) => {
    fields[name] = value;
  });
  parser.on('file', (field, stream, info) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('limit', () => stop(bodyTooLarge(maxBytes)));
    // A body that ends inside a file fails the file's stream: unhandled, that would end the process.
    stream.on('error', () => stop(malformed()));
    stream.on('end', () => files.push({ field, filename: info.filename ?? '', mimeType: info.mimeType, data: Buffer.concat(chunks) }));
  });
  parser.on('fieldsLimit', () => stop(tooManyParameters()));
  parser.on('filesLimit', () => stop(tooManyFiles()));
  parser.on('error', () => stop(malformed()));
  parser.on('close', () => {
    req.body = fields;
    req.files = files;
    done();
  });
  req.on('error', () => fail(malformed()));
  req.pipe(parser);
}

/**
 * For endpoints that take a document rather than parameters (incoming webhooks post JSON): the
 * body's bytes, within `maxBytes`, kept on req.rawBody. A form-encoded body is also read into
 * req.body, as the form readers would. Null when the request has no body.
 */
export function readRawBody(req: ApiRequest, maxBytes: number): Promise<void> | null {
  if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) return null;
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (error: ApiError) => {
      if (settled) return;
      settled = true;
      req.pause();
      reject(error);
    };
    const chunks: Buffer[] = [];
    let received = 0;
    const declared = req.headers['transfer-encoding'] === undefined ? Number(req.headers['content-length']) : null;
    if (declared !== null && declared > maxBytes) return fail(bodyTooLarge(maxBytes));
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBytes) return fail(bodyTooLarge(maxBytes));
      chunks.push(chunk);
    });
    req.on('error', () => fail(malformed()));
    req.on('end', () => {
      if (settled) return;
      settled = true;
      req.rawBody = Buffer.concat(chunks);
      if ((req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
        const fields: Record<string, string> = {};
        for (const [key, value] of new URLSearchParams(req.rawBody.toString('utf8'))) fields[key] = value;
        req.body = fields;
      }
      resolve();
    });
  });
}
