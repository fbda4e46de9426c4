import fs from 'node:fs';
import path from 'node:path';
import express, { type Request, type Response, Router } from 'express';
import type { AppDeps } from '../core/deps';
import { sessionUser } from '../core/accounts/sessions';
import { csrfToken, readCookie, SESSION_COOKIE } from './cookies';
import { pageHandler } from './forms';

/**
 * The web app: GET / serves its page to a signed-in browser (others go to /login/ first), and
 * /static/webapp/ its hashed bundles (scripts/build-webapp.js builds both into dist/webapp). The page
 * carries the CSRF token the app sends with every GraphQL request and upload; the session itself
 * stays in an HttpOnly cookie that scripts cannot read.
 */
export const WEBAPP_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "font-src 'self'",
  "manifest-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "object-src 'none'",
  "frame-ancestors 'none'",
].join('; ');

const TOKEN_PLACEHOLDER = '__CSRF_TOKEN__';

/** The project's root: the nearest directory above this file holding package.json (src/ or dist/src/). */
function projectRoot(): string {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

export function webappRouter(deps: AppDeps, directory = path.join(projectRoot(), 'dist', 'webapp')): Router {
  const router = Router();
  let template: string | null = null;

  router.get(
    '/',
    pageHandler(async (req: Request, res: Response) => {
      res.set('cache-control', 'no-store').set('x-content-type-options', 'nosniff');
      const user = await sessionUser(deps, readCookie(req, SESSION_COOKIE));
      if (!user) {
        res.redirect(302, '/login/?next=/');
        return;
      }
      try {
        template ??= await fs.promises.readFile(path.join(directory, 'index.html'), 'utf8');
      } catch {
        res.status(503).type('text/plain').send('The web app is not built: run npm run build.\n');
        return;
      }
      res
        .set('content-security-policy', WEBAPP_POLICY)
        .set('referrer-policy', 'same-origin')
        .type('html')
        .send(template.replace(TOKEN_PLACEHOLDER, csrfToken(req, res, deps.config)));
    }),
  );

  router.use(
    '/static/webapp',
    express.static(path.join(directory, 'assets'), {
      immutable: true,
      maxAge: '365d',
      index: false,
      fallthrough: true,
      setHeaders: (res) => res.setHeader('x-content-type-options', 'nosniff'),
    }),
  );
  return router;
}
