import type { RequestHandler } from 'express';
import { bodyTooLarge, closeIfBodyUnread, watchBodySize } from './body-limits';
import { sendError } from './router';

/**
 * For express routes that parse bodies with body-parser, which reads the rest of a body over its
 * limit before it answers: refuses such a body with 413 as soon as that is known and reads no more.
 */
export function refuseLargeBodies(maxBytes: number): RequestHandler {
  return (req, res, next) => {
    watchBodySize(req, maxBytes, () => {
      req.unpipe();
      req.pause();
      if (res.headersSent) return;
      closeIfBodyUnread(req, res);
      sendError(res, bodyTooLarge(maxBytes));
    });
    if (!res.headersSent) next();
  };
}
