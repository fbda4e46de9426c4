import { ConfigError, requiredVar, urlVar } from './index';

type Env = Record<string, string | undefined>;

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
