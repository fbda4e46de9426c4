import { pipeline } from 'node:stream';
import type { Request, Response } from 'express';
import { deleteExport, exportConsents, exportFile, getExports, requestExport } from '../core/exports/actions';
import { EXPORT_TYPE_NAMES } from '../core/exports/model';
import type { AppDeps } from '../core/deps';
import { ApiError, errors } from '../errors';
import { endpoint, p } from './endpoint';
import type { Route } from './router';
import { sendError, sendInternalError } from './router';

export const exportRoutes: Route[] = [
  {
    method: 'GET',
    path: '/export/realm',
    endpoint: endpoint({
      params: {},
      handler: async ({ deps, user }) => ({ exports: await getExports(deps, user) }),
    }),
  },
  {
    method: 'POST',
    path: '/export/realm',
    endpoint: endpoint({
      params: { export_type: p.enum(EXPORT_TYPE_NAMES).default('public') },
      handler: async ({ deps, user, params }) => ({ id: await requestExport(deps, user, params.export_type) }),
    }),
  },
  {
    method: 'GET',
    path: '/export/realm/consents',
    endpoint: endpoint({
      params: {},
      handler: async ({ deps, user }) => ({ export_consents: await exportConsents(deps, user) }),
    }),
  },
  {
    method: 'DELETE',
    path: '/export/realm/:export_id',
    endpoint: endpoint({
      params: { export_id: p.path.int() },
      handler: async ({ deps, user, params }) => {
        await deleteExport(deps, user, params.export_id);
      },
    }),
  },
];

/**
 * An export's file. As in Zulip, its URL is the secret: an unguessable path under /user_avatars,
 * valid until the export is deleted.
 */
export function serveExportFile(deps: AppDeps) {
  return (req: Request, res: Response): void => {
    void (async () => {
      const file = await exportFile(deps, String(req.params.realmId), String(req.params.token), String(req.params.fileName));
      if (!file) throw errors.notFound();
      res.setHeader('Content-Type', 'application/gzip');
      res.setHeader('Content-Length', String(file.size));
      res.setHeader('Content-Disposition', `attachment; filename="${String(req.params.fileName).replace(/[^\w.-]/g, '')}"`);
      res.setHeader('Cache-Control', 'private, no-store');
      if (req.method === 'HEAD') res.end();
      else pipeline(file.open(), res, () => undefined);
    })().catch((error: unknown) => {
      if (res.headersSent) return;
      if (error instanceof ApiError) sendError(res, error);
      else sendInternalError(res, error, req);
    });
  };
}
