import { createHash } from 'node:crypto';
import type { ConstructorGroupsConfig } from '../../config/call-providers';
import { ApiError } from '../../errors';
import { log } from '../../log';
import type { AppDeps } from '../deps';
import type { User } from '../users/model';
import { failedToCreateCall, postToProvider, providerNotConfigured, type ProviderAnswer } from './providers';

/**
 * Constructor Groups calls, as Zulip makes them: the member's default room on the Constructor
 * Groups server (created there the first time, reused after), found through the XAPI's
 * POST /room/default by the member's email address. Every failure, the server's or the network's,
 * is Zulip's one "Failed to create" error; what went wrong is logged.
 */
const PROVIDER = 'Constructor Groups';

function configured(deps: AppDeps): ConstructorGroupsConfig {
  if (!deps.config.constructorGroups) throw providerNotConfigured(PROVIDER);
  return deps.config.constructorGroups;
}

/** The XAPI's bearer token: the access key, and SHA-256 of the access key and secret key joined by `|`. */
export function constructorGroupsToken(config: ConstructorGroupsConfig): string {
  return `${config.accessKey}|${createHash('sha256').update(`${config.accessKey}|${config.secretKey}`).digest('hex')}`;
}

export async function createConstructorGroupsCall(deps: AppDeps, user: User): Promise<{ url: string }> {
  const config = configured(deps);
  const name = `${user.full_name}'s Parley room`;
  let answer: ProviderAnswer;
  try {
    answer = await postToProvider(PROVIDER, `${config.url}/room/default`, {
      headers: { authorization: `Bearer ${constructorGroupsToken(config)}`, 'content-type': 'application/json' },
      // The fallback names the room when another one already has its name.
      body: JSON.stringify({ creator_email: user.delivery_email, name, fallback_name: `${name} (${user.realm_id}-${user.id})` }),
    });
  } catch (error) {
    log().warn({ reason: (error as ApiError).message }, 'Constructor Groups could not be reached');
    throw failedToCreateCall(PROVIDER);
  }
  const url = (answer.body as { url?: unknown } | null)?.url;
  if (!answer.ok || typeof url !== 'string' || !/^https?:\/\//.test(url)) {
    log().warn({ status: answer.status }, 'Constructor Groups created no room');
    throw failedToCreateCall(PROVIDER);
  }
  return { url };
}
