import type { PushServiceConfig } from '../../config';
import { ApiError } from '../../errors';
import { BouncerBody, BouncerError, SERVER_REFUSAL_CODES, postToBouncer, realmUuid, userUuid } from '../notifications/bouncer';
import type { User } from '../users/model';

/**
 * The legacy token registration at the push service, done in the request as Zulip's server does:
 * the service sends a user's notifications to the tokens registered there for that user. Token
 * kinds are numbered as the service numbers them.
 */
export const SERVICE_TOKEN_KIND = { apns: 1, fcm: 2 } as const;

/**
 * How a failed request to the service reaches the client, as Zulip answers: an unreachable or
 * failing service is a 502 to try again later; the service's refusal of the request itself (such as
 * an unknown token) passes its message on; a refusal of this server is the operator's to fix (502).
 */
export function clientError(error: unknown): ApiError {
  if (!(error instanceof BouncerError)) throw error;
  if (error.retryable) return new ApiError('BAD_REQUEST', error.message, 502);
  if (error.code !== null && SERVER_REFUSAL_CODES.has(error.code)) {
    console.error(`push service refused this server: ${error.code}`);
    return new ApiError('BAD_REQUEST', `Push notifications bouncer error: ${error.serviceMessage ?? ''}`, 502);
  }
  return new ApiError('BAD_REQUEST', error.serviceMessage || 'Push notification bouncer error', 400);
}

/** Only the user's organization and id name them to the service. */
type UserRef = Pick<User, 'realm_id' | 'id'>;

function identity(service: PushServiceConfig, user: UserRef): BouncerBody {
  return {
    server_uuid: service.orgId,
    realm_uuid: realmUuid(service, user.realm_id),
    user_uuid: userUuid(service, user.realm_id, user.id),
    user_id: user.id,
  };
}

export async function registerTokenWithService(
  service: PushServiceConfig,
  user: User,
  kind: keyof typeof SERVICE_TOKEN_KIND,
  token: string,
  iosAppId: string | null,
): Promise<void> {
  const body: BouncerBody = { ...identity(service, user), token, token_kind: SERVICE_TOKEN_KIND[kind] };
  if (kind === 'apns' && iosAppId !== null) body.ios_app_id = iosAppId;
  try {
    await postToBouncer(service, 'push/register', body, 'form');
  } catch (error) {
    throw clientError(error);
  }
}

export async function unregisterTokenWithService(
  service: PushServiceConfig,
  user: UserRef,
  kind: keyof typeof SERVICE_TOKEN_KIND,
  token: string,
): Promise<void> {
  try {
    await postToBouncer(service, 'push/unregister', { ...identity(service, user), token, token_kind: SERVICE_TOKEN_KIND[kind] }, 'form');
  } catch (error) {
    throw clientError(error);
  }
}

/**
 * Asks the service to forget every legacy token it holds for the user (remotes/push/unregister/all),
 * named by both id and uuid as Zulip's server does, since either may have registered them. Errors
 * are the bouncer's own, for the worker to retry or give up on.
 */
export async function unregisterAllWithService(service: PushServiceConfig, user: User): Promise<void> {
  await postToBouncer(service, 'push/unregister/all', identity(service, user), 'form');
}
