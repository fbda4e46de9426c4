import type { Request, Response } from 'express';
import { joinBigBlueButtonCall, createBigBlueButtonCall } from '../core/calls/bigbluebutton';
import { createZoomCall } from '../core/calls/zoom';
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
    method: 'POST',
    path: '/calls/zoom/create',
    endpoint: endpoint({
      params: { is_video_call: p.bool().default(true) },
      handler: async ({ deps, user, params }) => createZoomCall(deps, user, { isVideoCall: params.is_video_call }),
    }),
  },
];

/**
 * GET /calls/bigbluebutton/join?bigbluebutton=<signed link>: a page the browser opens from a
 * message, on the web app's session (others log in first and come back). It creates the meeting
 * on the BigBlueButton server and redirects there; a bad link or an unreachable server gets
 * Zulip's JSON error.
 */
export function joinBigBlueButton(deps: AppDeps) {
  return (req: Request, res: Response): void => {
    (async () => {
      res.setHeader('Cache-Control', 'no-store');
      const user = await sessionUser(deps, sessionSecretOf(req));
      if (!user) {
        res.redirect(302, `/login/?${new URLSearchParams({ next: req.originalUrl })}`);
        return;
      }
      const token = req.query.bigbluebutton;
      if (typeof token !== 'string') throw errors.missing('bigbluebutton');
      res.redirect(302, await joinBigBlueButtonCall(deps, user, token));
    })().catch((error: unknown) => {
      if (res.headersSent) return;
      if (error instanceof ApiError) sendError(res, error);
      else sendInternalError(res, error, req);
    });
  };
}
