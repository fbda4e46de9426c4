import express, { Request, RequestHandler, Response } from 'express';
import { ApiError } from '../errors';
import { refuseLargeBodies } from '../rest/body-guard';
import { errorParagraph, page } from './html';

/** The pages' forms have a few short fields. */
const FORM_BYTES = 64 * 1024;

export const formBody: RequestHandler[] = [refuseLargeBodies(FORM_BYTES), express.urlencoded({ extended: false, limit: FORM_BYTES })];

export const fieldsOf = (req: Request) => (req.body ?? {}) as Record<string, unknown>;
export const field = (req: Request, name: string): string => {
  const value = fieldsOf(req)[name];
  return typeof value === 'string' ? value : '';
};

/** Runs a page handler; a refusal becomes a small error page with the refusal's status. */
export function pageHandler(work: (req: Request, res: Response) => Promise<void>): RequestHandler {
  return async (req, res, next) => {
    try {
      await work(req, res);
    } catch (error) {
      if (!(error instanceof ApiError)) {
        next(error);
        return;
      }
      if (res.headersSent) return;
      res
        .status(error.httpStatus)
        .type('html')
        .send(page('Error', `<h1>Whoops.</h1>${errorParagraph(error.message)}`));
    }
  };
}
