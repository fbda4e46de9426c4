import { pipeline } from 'node:stream';
import type { Request, Response } from 'express';
import { deleteRealmIcon, deleteRealmLogo, RealmImage, realmImageKey, uploadRealmIcon, uploadRealmLogo } from '../core/uploads/realm-images';
import { fileStore } from '../core/uploads/stores';
import { Realm } from '../core/realm/model';
import type { AppDeps } from '../core/deps';
import { ApiError, errors } from '../errors';
import { endpoint, p } from './endpoint';
import type { Route } from './router';
import { sendError, sendInternalError } from './router';

export const realmImageRoutes: Route[] = [
  {
    method: 'POST',
    path: '/realm/icon',
    endpoint: endpoint({
      params: {},
      handler: async ({ deps, user, req }) => ({ icon_url: await uploadRealmIcon(deps, user, req.files ?? []) }),
    }),
  },
  {
    method: 'DELETE',
    path: '/realm/icon',
    endpoint: endpoint({
      params: {},
      handler: async ({ deps, user }) => deleteRealmIcon(deps, user),
    }),
  },
  {
    method: 'POST',
    path: '/realm/logo',
    endpoint: endpoint({
      params: { night: p.bool().default(false) },
      handler: async ({ deps, user, req, params }) => {
        await uploadRealmLogo(deps, user, req.files ?? [], params.night);
      },
    }),
  },
  {
    method: 'DELETE',
    path: '/realm/logo',
    endpoint: endpoint({
      params: { night: p.bool().default(false) },
      handler: async ({ deps, user, params }) => {
        await deleteRealmLogo(deps, user, params.night);
      },
    }),
  },
];

const IMAGES: Record<string, RealmImage> = { 'icon.png': 'icon', 'logo.png': 'logo', 'night_logo.png': 'night_logo' };

/** The organization's uploaded icon and logos, public like Zulip's (the login page shows them). */
export function serveRealmImage(deps: AppDeps) {
  return (req: Request, res: Response): void => {
    void (async () => {
      const image = IMAGES[String(req.params.fileName)];
      if (!image || String(req.params.realmId) !== String(deps.realmId)) throw errors.notFound();
      const realm = await Realm.query(deps.knex).findById(deps.realmId);
      const source = image === 'icon' ? realm?.icon_source : image === 'logo' ? realm?.logo_source : realm?.night_logo_source;
      const version = image === 'icon' ? realm?.icon_version : image === 'logo' ? realm?.logo_version : realm?.night_logo_version;
      const file = realm && source === 'U' ? await fileStore(deps.config).read(realmImageKey(deps.realmId, image, version!)) : null;
      if (!file) throw errors.notFound();
      res.setHeader('Content-Type', 'image/png');
      res.setHeader('Content-Length', String(file.size));
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Cache-Control', 'public, max-age=3600');
      if (req.method === 'HEAD') res.end();
      else pipeline(file.open(), res, () => undefined);
    })().catch((error: unknown) => {
      if (res.headersSent) return;
      if (error instanceof ApiError) sendError(res, error);
      else sendInternalError(res, error, req);
    });
  };
}
