import { createHash, randomInt } from 'node:crypto';
import type { BigBlueButtonConfig } from '../../config';
import { errors } from '../../errors';
import type { AppDeps } from '../deps';
import type { User } from '../users/model';
import { signJoinLink, verifyJoinLink } from './join-link';
import { failureReason, PROVIDER_TIMEOUT_MS, providerNotConfigured, providerUnreachable } from './providers';

/**
 * BigBlueButton calls, as Zulip makes them: GET /calls/bigbluebutton/create hands out a signed link
 * to this server's /calls/bigbluebutton/join, and opening it creates the meeting on the
 * BigBlueButton server (`create` is idempotent there) and sends the browser on to its `join` URL.
 * Both API calls carry the checksum BigBlueButton asks for: SHA-256 of the call's name, its query
 * string and the shared secret.
 */
const PROVIDER = 'BigBlueButton';

function configured(deps: AppDeps): BigBlueButtonConfig {
  if (!deps.config.bigBlueButton) throw providerNotConfigured(PROVIDER);
  return deps.config.bigBlueButton;
}

/** Percent-encodes everything but unreserved characters (RFC 3986), as Python's quote does. */
const encode = (value: string) => encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

const queryOf = (params: [string, string][]) => params.map(([key, value]) => `${key}=${encode(value)}`).join('&');

/** An API call's URL: the query string and its checksum. */
function apiUrl(bbb: BigBlueButtonConfig, call: 'create' | 'join', params: [string, string][]): string {
  const query = queryOf(params);
  const checksum = createHash('sha256').update(`${call}${query}${bbb.secret}`).digest('hex');
  return `${bbb.url}api/${call}?${query}&checksum=${checksum}`;
}

export function createBigBlueButtonCall(deps: AppDeps, user: User, options: { meetingName: string; voiceOnly: boolean }): { url: string } {
  const bbb = configured(deps);
  const token = signJoinLink(bbb.secret, {
    meetingId: `zulip-${randomInt(100_000_000_000, 1_000_000_000_000)}`,
    name: options.meetingName,
    voiceOnly: options.voiceOnly,
    moderator: user.id,
  });
  return { url: `/calls/bigbluebutton/join?${new URLSearchParams({ bigbluebutton: token })}` };
}

/** The text of a top-level element of BigBlueButton's small XML answers. */
const element = (xml: string, name: string): string | undefined => new RegExp(`<${name}>\\s*([^<]*?)\\s*</${name}>`).exec(xml)?.[1];

/** Creates the link's meeting on the BigBlueButton server; gives the URL that joins `user` to it. */
export async function joinBigBlueButtonCall(deps: AppDeps, user: User, token: string): Promise<string> {
  const bbb = configured(deps);
  const data = verifyJoinLink(bbb.secret, token);
  if (!data) throw errors.badRequest('Invalid signature.');

  const createUrl = apiUrl(bbb, 'create', [
    ['meetingID', data.meetingId],
    ['name', data.name],
    ['lockSettingsDisableCam', String(data.voiceOnly)],
  ]);
  let response: Response;
  let answer: string;
  try {
    response = await fetch(createUrl, { signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS), redirect: 'error' });
    answer = await response.text();
  } catch (error) {
    throw providerUnreachable(PROVIDER, failureReason(error));
  }
  if (!response.ok) throw providerUnreachable(PROVIDER, `HTTP ${response.status}`);
  if (element(answer, 'messageKey') === 'checksumError') throw errors.badRequest(`Error authenticating to the ${PROVIDER} server`);
  const status = element(answer, 'returncode');
  const createTime = element(answer, 'createTime');
  if (status !== 'SUCCESS' || !createTime) throw errors.badRequest(`${PROVIDER} server returned an unexpected error: ${status ?? 'no return code'}`);

  return apiUrl(bbb, 'join', [
    ['meetingID', data.meetingId],
    // Only the call's creator moderates it (and may turn cameras back on in a voice-only call).
    ['role', data.moderator === user.id ? 'MODERATOR' : 'VIEWER'],
    ['fullName', user.full_name],
    // Ties the join URL to this instance of the meeting: one that ended and is created again
    // from the same link has a new createTime.
    ['createTime', createTime],
  ]);
}
