import busboy from 'busboy';
import express from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from '../errors';
import { isPlainForm, PARAMETER_LIMIT, readPlainForm } from './form-body';
import { sendError } from './router';

const MAX_BODY_BYTES = 25 * 1024 * 1024;

const urlencoded = express.urlencoded({ extended: false, limit: MAX_BODY_BYTES, parameterLimit: PARAMETER_LIMIT });

/** A REST request once its body is parsed. */
export type ApiRequest = IncomingMessage & { body?: Record<string, string>; files?: UploadedFile[] };

/**
 * Request bodies arrive form-encoded or as multipart/form-data (zulip-js posts that way). Both become
 * a flat map of strings on req.body; uploaded files are kept in memory on req.files.
 */
export function parseBody(req: ApiRequest, res: ServerResponse, next: () => void): void {
  // Most requests (every GET) have no body at all.
  if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
    next();
    return;
  }
  const type = req.headers['content-type'] ?? '';
  if (type.startsWith('multipart/form-data')) {
    parseMultipart(req, res, next);
    return;
  }
  if (isPlainForm(req, MAX_BODY_BYTES)) {
    readPlainForm(req, (fields) => {
      if (fields === null) {
        sendError(res, new ApiError('BAD_REQUEST', 'Malformed payload', 400));
        return;
      }
      req.body = fields;
      next();
    });
    return;
  }
  urlencoded(req as never, res as never, (error?: unknown) => {
    if (error) {
      sendError(res, new ApiError('BAD_REQUEST', 'Malformed payload', 400));
      return;
    }
    next();
  });
}

export interface UploadedFile {
  field: string;
  filename: string;
  mimeType: string;
  data: Buffer;
}

function parseMultipart(req: ApiRequest, res: ServerResponse, next: () => void): void {
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: req.headers, limits: { fileSize: MAX_BODY_BYTES, fields: 10000 } });
  } catch {
    sendError(res, new ApiError('BAD_REQUEST', 'Malformed payload', 400));
    return;
  }
  const fields: Record<string, string> = {};
  const files: UploadedFile[] = [];
  let failed = false;
  parser.on('field', (name, value) => {
    fields[name] = value;
  });
  parser.on('file', (field, stream, info) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => files.push({ field, filename: info.filename ?? '', mimeType: info.mimeType, data: Buffer.concat(chunks) }));
  });
  parser.on('error', () => {
    if (failed) return;
    failed = true;
    sendError(res, new ApiError('BAD_REQUEST', 'Malformed payload', 400));
  });
  parser.on('close', () => {
    if (failed) return;
    req.body = fields;
    req.files = files;
    next();
  });
  req.pipe(parser);
}
