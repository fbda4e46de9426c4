import { ConfigError, type Env, requiredVar, urlVar } from './variables';

export interface ConstructorGroupsConfig {
  /** Base of the XAPI (such as https://example.constructor.app/api/groups/xapi), without a trailing slash. */
  url: string;
  accessKey: string;
  secretKey: string;
}

export interface NextcloudTalkConfig {
  /** The Nextcloud server's URL, ending in `/` (it may have a path, as in https://example.com/nextcloud/). */
  url: string;
  /** The account that creates the conversations, and its (app) password. */
  username: string;
  password: string;
}

/**
 * A provider turned on by its URL variable, which needs each of `required` with it: the URL and
 * their values, or null when none of them is set.
 */
function providerVariables(env: Env, urlName: string, required: string[]): { url: string; values: string[] } | null {
  const url = urlVar(env, urlName, ['http:', 'https:']);
  if (url === null) {
    const stray = required.find((name) => (env[name] ?? '').trim() !== '');
    if (stray) throw new ConfigError(`${urlName} must be set when ${stray} is`);
    return null;
  }
  return { url, values: required.map((name) => requiredVar(env, name, urlName)) };
}

/** Zulip's CONSTRUCTOR_GROUPS_URL with the API key's two halves: all three or none. */
export function constructorGroupsConfig(env: Env): ConstructorGroupsConfig | null {
  const vars = providerVariables(env, 'PARLEY_CONSTRUCTOR_GROUPS_URL', ['PARLEY_CONSTRUCTOR_GROUPS_ACCESS_KEY', 'PARLEY_CONSTRUCTOR_GROUPS_SECRET_KEY']);
  if (vars === null) return null;
  const [accessKey, secretKey] = vars.values;
  return { url: vars.url.replace(/\/+$/, ''), accessKey, secretKey };
}

/** Zulip's NEXTCLOUD_SERVER with the Talk account's username and password: all three or none. */
export function nextcloudTalkConfig(env: Env): NextcloudTalkConfig | null {
  const vars = providerVariables(env, 'PARLEY_NEXTCLOUD_URL', ['PARLEY_NEXTCLOUD_TALK_USERNAME', 'PARLEY_NEXTCLOUD_TALK_PASSWORD']);
  if (vars === null) return null;
  const [username, password] = vars.values;
  return { url: vars.url.endsWith('/') ? vars.url : `${vars.url}/`, username, password };
}

export interface BigBlueButtonConfig {
  /** The server's base URL, ending in `/` (its API is under `api/`). */
  url: string;
  /** The shared secret that signs API calls. */
  secret: string;
}

export interface ZoomConfig {
  /** The server-to-server app's Zoom account; null for a per-user OAuth app. */
  accountId: string | null;
  clientId: string;
  clientSecret: string;
  /** Base of the REST API (https://api.zoom.us), without a trailing slash. */
  apiUrl: string;
  /** Base of the OAuth authorize and token endpoints (https://zoom.us). */
  oauthUrl: string;
}

export function bigBlueButtonConfig(env: Env): BigBlueButtonConfig | null {
  const url = urlVar(env, 'PARLEY_BIGBLUEBUTTON_URL', ['http:', 'https:']);
  if (url === null) {
    if ((env.PARLEY_BIGBLUEBUTTON_SECRET ?? '').trim() !== '')
      throw new ConfigError('PARLEY_BIGBLUEBUTTON_URL must be set when PARLEY_BIGBLUEBUTTON_SECRET is');
    return null;
  }
  return { url: url.endsWith('/') ? url : `${url}/`, secret: requiredVar(env, 'PARLEY_BIGBLUEBUTTON_SECRET', 'PARLEY_BIGBLUEBUTTON_URL') };
}

export function zoomConfig(env: Env): ZoomConfig | null {
  const accountId = (env.PARLEY_ZOOM_ACCOUNT_ID ?? '').trim();
  const clientId = (env.PARLEY_ZOOM_CLIENT_ID ?? '').trim();
  if (clientId === '') {
    if (accountId !== '') throw new ConfigError('PARLEY_ZOOM_CLIENT_ID must be set when PARLEY_ZOOM_ACCOUNT_ID is');
    if ((env.PARLEY_ZOOM_CLIENT_SECRET ?? '').trim() !== '') throw new ConfigError('PARLEY_ZOOM_CLIENT_ID must be set when PARLEY_ZOOM_CLIENT_SECRET is');
    return null;
  }
  return {
    accountId: accountId === '' ? null : accountId,
    clientId,
    clientSecret: requiredVar(env, 'PARLEY_ZOOM_CLIENT_SECRET', accountId === '' ? 'PARLEY_ZOOM_CLIENT_ID' : 'PARLEY_ZOOM_ACCOUNT_ID'),
    apiUrl: (urlVar(env, 'PARLEY_ZOOM_API_URL', ['http:', 'https:']) ?? 'https://api.zoom.us').replace(/\/+$/, ''),
    oauthUrl: (urlVar(env, 'PARLEY_ZOOM_OAUTH_URL', ['http:', 'https:']) ?? 'https://zoom.us').replace(/\/+$/, ''),
  };
}
