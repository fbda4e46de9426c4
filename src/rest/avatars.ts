import { pipeline } from 'node:stream';
import type { Request, Response } from 'express';
import { deleteAvatar, uploadAvatar } from '../core/uploads/avatars';
import { avatarKey } from '../core/uploads/avatars';
import { jdenticonPng } from '../core/uploads/jdenticon';
import { fileStore } from '../core/uploads/stores';
import { Realm } from '../core/realm/model';
import { User } from '../core/users/model';
import { requireAvatarChangesAllowed } from '../core/users/name-policy';
import { gravatarUrl, mediumAvatarUrl, userDict } from '../core/users/view';
import type { AppDeps } from '../core/deps';
import { ApiError, errors } from '../errors';
import { admit } from './admit';
import { endpoint } from './endpoint';
import type { Route } from './router';
import { sendError, sendInternalError } from './router';

export const avatarRoutes: Route[] = [
  {
    method: 'POST',
    path: '/users/me/avatar',
    endpoint: endpoint({
      params: {},
      handler: async ({ deps, user, req }) => {
        await requireAvatarChangesAllowed(deps.knex, deps.realmId, user);
        return { avatar_url: await uploadAvatar(deps, user, req.files ?? []) };
      },
    }),
  },
  {
    method: 'DELETE',
    path: '/users/me/avatar',
    endpoint: endpoint({
      params: {},
      handler: async ({ deps, user }) => {
        await requireAvatarChangesAllowed(deps.knex, deps.realmId, user);
        return { avatar_url: await deleteAvatar(deps, user) };
      },
    }),
  },
];

function answering(handler: (req: Request, res: Response) => Promise<void>) {
  return (req: Request, res: Response): void => {
    handler(req, res).catch((error: unknown) => {
      if (res.headersSent) return;
      if (error instanceof ApiError) sendError(res, error);
      else sendInternalError(res, error, req);
    });
  };
}

/**
 * The images behind uploaded avatars' URLs (/user_avatars/<user id>[/medium]). Like Zulip's, they
 * are public: an <img> cannot send credentials. A generated picture is drawn; an account without
 * either is sent to its gravatar.
 */
export function serveAvatarImage(deps: AppDeps, size: 'small' | 'medium') {
  return answering(async (req, res) => {
    const id = /^\d+$/.test(String(req.params.userId)) ? Number(req.params.userId) : NaN;
    const user = Number.isSafeInteger(id) && id < 2 ** 31 ? await User.query(deps.knex).findOne({ id }) : undefined;
    if (!user) throw errors.notFound();
    if (user.avatar_source === 'J') {
      const realm = await Realm.query(deps.knex).findById(user.realm_id).select('uuid');
      if (!realm) throw errors.notFound();
      sendImage(req, res, jdenticonPng(realm.uuid, user.id, size));
      return;
    }
    const file = user.avatar_source === 'U' ? await fileStore(deps.config).read(avatarKey(user.id, user.avatar_version, size)) : null;
    if (!file) {
      const url = gravatarUrl(user.delivery_email, user.avatar_version);
      res.redirect(302, size === 'medium' ? mediumAvatarUrl(url) : url);
      return;
    }
    imageHeaders(res, file.size);
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    pipeline(file.open(), res, () => undefined);
  });
}

function imageHeaders(res: Response, size: number): void {
  res.setHeader('Content-Type', 'image/png');
  res.setHeader('Content-Length', String(size));
  res.setHeader('X-Content-Type-Options', 'nosniff');
  // The URL carries the version, so a cached image is never stale for long.
  res.setHeader('Cache-Control', 'public, max-age=3600');
}

function sendImage(req: Request, res: Response, png: Buffer): void {
  imageHeaders(res, png.length);
  res.end(req.method === 'HEAD' ? undefined : png);
}

/**
 * GET /avatar/<user id or email>[/medium]: a redirect to that user's current avatar, for clients
 * that know only who (Basic credentials, as Zulip's API accepts there). An address nobody here has
 * gets its gravatar, as in Zulip.
 */
export function redirectToAvatar(deps: AppDeps, size: 'small' | 'medium') {
  return answering(async (req, res) => {
    await admit(deps, req, res, 'required');
    const key = String(req.params.who);
    let user: User | undefined;
    if (/^\d+$/.test(key)) {
      const id = Number(key);
      user = id < 2 ** 31 ? await User.query(deps.knex).findOne({ id, realm_id: deps.realmId }) : undefined;
      if (!user) throw errors.badRequest('Invalid user ID');
    } else {
      user = await User.query(deps.knex).where({ realm_id: deps.realmId }).whereRaw('lower(delivery_email) = lower(?)', [key]).first();
    }
    let url = user ? (userDict(deps.config, null, user, { clientGravatar: false, includeProfileData: false }).avatar_url as string) : gravatarUrl(key, 1);
    if (size === 'medium') url = mediumAvatarUrl(url);
    const query = req.url.indexOf('?');
    if (query >= 0) url += `&${req.url.slice(query + 1)}`;
    res.redirect(302, url);
  });
}
