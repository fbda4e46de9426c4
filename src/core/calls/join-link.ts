import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * What a BigBlueButton join link carries: the meeting, its name, whether cameras are off, and who
 * created it (its moderator). Signed so that a member cannot edit a link into one for another
 * meeting on the same BigBlueButton server.
 */
export interface JoinLinkData {
  meetingId: string;
  name: string;
  voiceOnly: boolean;
  moderator: number;
}

/** The signing key is derived from the shared secret, so the secret itself signs only API calls. */
const keyOf = (secret: string) => createHmac('sha256', secret).update('parley bigbluebutton join link').digest();

const mac = (secret: string, payload: string) => createHmac('sha256', keyOf(secret)).update(payload).digest('base64url');

export function signJoinLink(secret: string, data: JoinLinkData): string {
  const payload = Buffer.from(
    JSON.stringify({ meeting_id: data.meetingId, name: data.name, lock_settings_disable_cam: data.voiceOnly, moderator: data.moderator }),
  ).toString('base64url');
  return `${payload}:${mac(secret, payload)}`;
}

/** The link's data, or null when its signature does not match or it is not one of ours. */
export function verifyJoinLink(secret: string, token: string): JoinLinkData | null {
  const [payload, signature, ...rest] = token.split(':');
  if (!payload || !signature || rest.length > 0) return null;
  const expected = Buffer.from(mac(secret, payload));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let data: Record<string, unknown>;
  try {
    data = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const { meeting_id, name, lock_settings_disable_cam, moderator } = data ?? {};
  if (typeof meeting_id !== 'string' || typeof name !== 'string' || typeof lock_settings_disable_cam !== 'boolean' || !Number.isSafeInteger(moderator)) {
    return null;
  }
  return { meetingId: meeting_id, name, voiceOnly: lock_settings_disable_cam, moderator: moderator as number };
}
