import type { Request, Response } from 'express';
import { deactivateRealmEmoji, uploadRealmEmoji } from '../core/emoji/actions';
import { listRealmEmoji, realmEmojiImage } from '../core/emoji/queries';
import { serverEmojiFile } from '../core/emoji/server-data';
import type { AppDeps } from '../core/deps';
import { errors } from '../errors';
import type { UploadedFile } from '../core/uploads/uploaded-file';
import { endpoint, p } from './endpoint';
import { sendError } from './router';
import type { Route } from './router';

export const emojiRoutes: Route[] = [
  {
    method: 'GET',
    path: '/realm/emoji',
    endpoint: endpoint({
      params: {},
      handler: async ({ deps }) => ({ emoji: await listRealmEmoji(deps.knex, deps.realmId) }),
    }),
  },
  {
    method: 'POST',
    path: '/realm/emoji/:emoji_name',
    // The web app adds custom emoji at /json/realm/emoji/<name> with its session (no GraphQL mutation takes a file).
    browser: true,
    endpoint: endpoint({
      params: { emoji_name: p.path.string() },
      handler: async ({ deps, user, params, req }) => {
        const files = (req as Request & { files?: UploadedFile[] }).files ?? [];
        await uploadRealmEmoji(deps, user, params.emoji_name, files);
      },
    }),
  },
  {
    method: 'DELETE',
    path: '/realm/emoji/:emoji_name',
    endpoint: endpoint({
      params: { emoji_name: p.path.string() },
      handler: async ({ deps, user, params }) => {
        await deactivateRealmEmoji(deps, user, params.emoji_name);
      },
    }),
  },
];

/**
 * Custom emoji images, at the `source_url` the API hands out. Like Zulip's, they are public:
 * the random file name is what keeps them from being listed.
 */
export function serveRealmEmojiImage(deps: AppDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    const realmId = Number(req.params.realmId);
    const found = realmId === deps.realmId ? await realmEmojiImage(deps.knex, deps.realmId, String(req.params.fileName)) : undefined;
    if (!found) {
      sendError(res, errors.notFound());
      return;
    }
    res.setHeader('Content-Type', found.contentType);
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.send(found.image);
  };
}

/** The Unicode emoji data file (server_emoji_data_url): public, immutable under its name. */
export function serveServerEmojiData(req: Request, res: Response): void {
  const file = serverEmojiFile();
  if (req.params.fileName !== file.fileName) {
    sendError(res, errors.notFound());
    return;
  }
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
  res.send(file.body);
}
