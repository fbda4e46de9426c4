import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { joinBigBlueButtonCall, createBigBlueButtonCall } from '../core/calls/bigbluebutton';
import { createConstructorGroupsCall } from '../core/calls/constructor-groups';
import { createNextcloudTalkCall } from '../core/calls/nextcloud-talk';
import { createZoomCall } from '../core/calls/zoom';
import { completeZoomAuthorization, disconnectZoom, zoomAuthorizeUrl } from '../core/calls/zoom-user-calls';
import type { User } from '../core/users/model';
import { sessionUser } from '../core/accounts/sessions';
import type { AppDeps } from '../core/deps';
import { ApiError, errors } from '../errors';
import { sessionSecretOf } from '../web/session-auth';
import { endpoint, p } from './endpoint';
import type { Route } from './router';
import { sendError, sendInternalError } from './router';

export const callRoutes: Route[] = [
  {
    method: 'GET',
    path: '/calls/bigbluebutton/create',
    endpoint: endpoint({
      params: { meeting_name: p.string(), voice_only: p.bool().default(false) },
      handler: async ({ deps, user, params }) => createBigBlueButtonCall(deps, user, { meetingName: params.meeting_name, voiceOnly: params.voice_only }),
    }),
  },
  {
    method: 'DELETE',
    path: '/calls/zoom',
    endpoint: endpoint({
      params: {},
      handler: async ({ deps, user }) => {
        await disconnectZoom(deps, user);
        return {};
      },
    }),
  },
  {
    method: 'POST',
    path: '/calls/zoom/create',
    endpoint: endpoint({
      params: { is_video_call: p.bool().default(true) },
      handler: async ({ deps, user, params }) => createZoomCall(deps, user, { isVideoCall: params.is_video_call }),
    }),
  },
  {
    method: 'POST',
    path: '/calls/constructorgroups/create',
    endpoint: endpoint({ params: {}, handler: async ({ deps, user }) => createConstructorGroupsCall(deps, user) }),
  },
  {
    method: 'POST',
    path: '/calls/nextcloud_talk/create',
    endpoint: endpoint({
      params: { room_name: p.string() },
      handler: async ({ deps, params }) => createNextcloudTalkCall(deps, params.room_name),
    }),
  },
];

/**
 * A page the browser opens on the web app's session (others log in first and come back); errors
 * are Zulip's JSON errors.
 */
function browserRoute(deps: AppDeps, work: (user: User, sessionSecret: string, req: Request, res: Response) => Promise<void>) {
  return (req: Request, res: Response): void => {
    (async () => {
      res.setHeader('Cache-Control', 'no-store');
      const sessionSecret = sessionSecretOf(req);
      const user = await sessionUser(deps, sessionSecret);
      if (!user || !sessionSecret) {
        res.redirect(302, `/login/?${new URLSearchParams({ next: req.originalUrl })}`);
        return;
      }
      await work(user, sessionSecret, req, res);
    })().catch((error: unknown) => {
      if (res.headersSent) return;
      if (error instanceof ApiError) sendError(res, error);
      else sendInternalError(res, error, req);
    });
  };
}

function queryString(req: Request, name: string): string {
  const value = req.query[name];
  if (typeof value !== 'string') throw errors.missing(name);
  return value;
}

/**
 * GET /calls/bigbluebutton/join?bigbluebutton=<signed link>: opened from a message, it creates the
 * meeting on the BigBlueButton server and redirects there.
 */
export const joinBigBlueButton = (deps: AppDeps) =>
  browserRoute(deps, async (user, _sessionSecret, req, res) => {
    res.redirect(302, await joinBigBlueButtonCall(deps, user, queryString(req, 'bigbluebutton')));
  });

/** GET /calls/zoom/register: on to Zoom's consent page, to connect the member's Zoom account. */
export const registerZoomUser = (deps: AppDeps) =>
  browserRoute(deps, async (user, sessionSecret, _req, res) => {
    res.redirect(302, zoomAuthorizeUrl(deps, user, sessionSecret));
  });

/** The page Zoom's consent ends on: the web app opened it in a window of its own, which closes. */
const CLOSE_SCRIPT = 'window.close();';
const CLOSE_PAGE = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Zoom connected</title></head>
<body><p>Your Zoom account is connected. You may close this window.</p><script>${CLOSE_SCRIPT}</script></body></html>
`;
const CLOSE_PAGE_CSP = `default-src 'none'; script-src 'sha256-${createHash('sha256').update(CLOSE_SCRIPT).digest('base64')}'`;

/** GET /calls/zoom/complete?code=&state=: where Zoom sends the member back after consent. */
export const completeZoomUser = (deps: AppDeps) =>
  browserRoute(deps, async (user, sessionSecret, req, res) => {
    await completeZoomAuthorization(deps, user, sessionSecret, { code: queryString(req, 'code'), state: queryString(req, 'state') });
    res.setHeader('Content-Security-Policy', CLOSE_PAGE_CSP);
    res.type('html').send(CLOSE_PAGE);
  });
