import type { ZoomConfig } from '../../config';
import { failedToCreateCall, postToProvider, type ProviderAnswer } from './providers';

/** What both Zoom apps share: the provider's name in messages, and the meeting request. */
export const ZOOM = 'Zoom';

export const failedToCreateZoomCall = () => failedToCreateCall(ZOOM);

export type ZoomAnswer = ProviderAnswer;

/** A POST to Zoom with a timeout and no redirects; an unreachable Zoom is the provider error. */
export const zoomPost = (url: string, init: { headers: Record<string, string>; body: string }): Promise<ZoomAnswer> => postToProvider(ZOOM, url, init);

/** Basic credentials of the app, for Zoom's token endpoint. */
export const zoomClientAuthorization = (zoom: ZoomConfig) => `Basic ${Buffer.from(`${zoom.clientId}:${zoom.clientSecret}`).toString('base64')}`;

/** Creates a meeting hosted by `zoomUser` (an email address, or `me` for the token's own user). */
export function requestZoomMeeting(zoom: ZoomConfig, zoomUser: string, token: string, isVideoCall: boolean): Promise<ZoomAnswer> {
  return zoomPost(`${zoom.apiUrl}/v2/users/${encodeURIComponent(zoomUser)}/meetings`, {
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      // The host's choice of cameras on or off at the start, for everyone (a voice call: off).
      settings: { host_video: isVideoCall, participant_video: isVideoCall },
      // A password in the join URL; without one, organizations that require authentication
      // force a waiting room.
      default_password: true,
    }),
  });
}

/** The join URL of a created meeting. */
export function joinUrlOf(answer: ZoomAnswer): { url: string } {
  const joinUrl = (answer.body as { join_url?: unknown } | null)?.join_url;
  if (typeof joinUrl !== 'string' || !/^https?:\/\//.test(joinUrl)) throw failedToCreateZoomCall();
  return { url: joinUrl };
}
