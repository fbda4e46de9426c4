import fs from 'node:fs';
import path from 'node:path';
import { Request, Response, Router } from 'express';

/**
 * GET /dashboard: the live dashboard page, bundled into dist/dashboard by `npm run build` (see
 * scripts/build-dashboard.js). Everything it loads comes from this server, which its policy says.
 */
const FILES: Record<string, { name: string; type: string }> = {
  '/dashboard': { name: 'index.html', type: 'text/html; charset=utf-8' },
  '/dashboard/app.js': { name: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/dashboard/app.css': { name: 'app.css', type: 'text/css; charset=utf-8' },
};

const POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; form-action 'none'; base-uri 'none'; frame-ancestors 'none'";

/** The project's root: the nearest directory above this file holding package.json (src/ or dist/src/). */
function projectRoot(): string {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

export function dashboardRouter(directory = path.join(projectRoot(), 'dist', 'dashboard')): Router {
  const router = Router();
  for (const [route, file] of Object.entries(FILES)) {
    router.get(route, (_req: Request, res: Response) => {
      fs.readFile(path.join(directory, file.name), (error, data) => {
        res.set('cache-control', 'no-cache').set('x-content-type-options', 'nosniff');
        if (error) {
          res.status(503).type('text/plain').send('The dashboard is not built: run npm run build.\n');
          return;
        }
        res.set('content-security-policy', POLICY).type(file.type).send(data);
      });
    });
  }
  return router;
}
