import type { NextcloudTalkConfig } from '../../config/call-providers';
import type { AppDeps } from '../deps';
import { failedToCreateCall, postToProvider, providerNotConfigured, providerUnreachable } from './providers';

/**
 * Nextcloud Talk calls, as Zulip makes them: a new public conversation (type 3, which guests join
 * by its link, so members need no Nextcloud account) created by the configured account through
 * Talk's OCS API; its call page is the answer.
 */
const PROVIDER = 'Nextcloud Talk';

/** Talk refuses longer conversation names. */
export const MAX_ROOM_NAME_LENGTH = 255;

/** Zulip allows Talk more time than other providers. */
const TALK_TIMEOUT_MS = 10_000;

const PUBLIC_CONVERSATION = 3;

function configured(deps: AppDeps): NextcloudTalkConfig {
  if (!deps.config.nextcloudTalk) throw providerNotConfigured(PROVIDER);
  return deps.config.nextcloudTalk;
}

/** The name cut to Talk's limit, ending in "..." when cut (counted in characters, as Zulip does). */
export function talkRoomName(name: string): string {
  const chars = Array.from(name);
  return chars.length <= MAX_ROOM_NAME_LENGTH ? name : `${chars.slice(0, MAX_ROOM_NAME_LENGTH - 3).join('')}...`;
}

export async function createNextcloudTalkCall(deps: AppDeps, roomName: string): Promise<{ url: string }> {
  const config = configured(deps);
  // Relative paths keep a server installed under a path (https://example.com/nextcloud/).
  const answer = await postToProvider(
    PROVIDER,
    new URL('ocs/v2.php/apps/spreed/api/v4/room', config.url).href,
    {
      headers: {
        'ocs-apirequest': 'true',
        accept: 'application/json',
        'content-type': 'application/json',
        authorization: `Basic ${Buffer.from(`${config.username}:${config.password}`).toString('base64')}`,
      },
      body: JSON.stringify({ roomType: PUBLIC_CONVERSATION, roomName: talkRoomName(roomName) }),
    },
    TALK_TIMEOUT_MS,
  );
  if (!answer.ok) throw providerUnreachable(PROVIDER, `HTTP ${answer.status}`);
  const token = (answer.body as { ocs?: { data?: { token?: unknown } } } | null)?.ocs?.data?.token;
  if (typeof token !== 'string' || token === '') throw failedToCreateCall(PROVIDER);
  return { url: new URL(`index.php/call/${encodeURIComponent(token)}`, config.url).href };
}
