import type { PushServiceConfig } from '../../config';
import type { AppDeps } from '../deps';
import { inTransaction } from '../../db/unit-of-work';
import { listParam } from '../../db/lists';
import { BouncerError, SERVER_REFUSAL_CODES, postToBouncer, realmUuid } from '../notifications/bouncer';
import { CLAIM_LEASE_MS } from '../notifications/queue';
import type { TokenKind } from '../devices/model';
import { dropSupersededLegacyTokens } from './legacy-superseded';
import { requestRealmUpload } from './realm-upload';

/**
 * Handing E2EE registrations to the push service (remotes/push/e2ee/register), run by the
 * notification worker after the registration committed. Devices with a pending token are claimed
 * as notification jobs are (a lease, FOR UPDATE SKIP LOCKED), so every process may run this and a
 * process that dies mid-request leaves the device to another. The service opens the sealed
 * registration and files the token under its token_id: the pending token becomes the device's
 * registered one, which supersedes the user's legacy registrations of that token
 * (legacy-superseded.ts); a refusal leaves its error code on the device. Each is a `device` update event.
 * An unreachable or failing service, or one refusing this server (its operator's to fix), is asked
 * again later, as Zulip's server does (one answering MISSING_REMOTE_REALM after the organization
 * is uploaded to it, realm-upload.ts), until the registration is older than the service accepts:
 * then it fails as REQUEST_EXPIRED.
 */

/** The service accepts a registration up to a day after the client sealed it. */
export const REGISTRATION_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** Delay before retry n (1-based): 1 s, 2 s, 4 s... at most ten minutes. */
export const registrationRetryDelayMs = (attempt: number) => Math.min(2 ** (attempt - 1) * 1000, 10 * 60 * 1000);

/** Error codes the service gives for a registration it cannot take; anything else is reported as BAD_REQUEST. */
const REGISTRATION_ERRORS = new Set(['INVALID_BOUNCER_PUBLIC_KEY', 'INVALID_ENCRYPTED_PUSH_REGISTRATION', 'REQUEST_EXPIRED']);

interface Claimed {
  id: number;
  user_id: number;
  push_token_kind: TokenKind | null;
  pending_push_token_id: string;
  bouncer_public_key: string;
  encrypted_push_registration: string;
  push_token_updated_at: Date;
  register_attempts: number;
  register_claimed_until: Date;
}

async function claim(deps: AppDeps, now: Date, limit = 50): Promise<Claimed[]> {
  return deps.knex.transaction(async (trx) => {
    const rows = (
      await trx.raw(
        `SELECT id, user_id, push_token_kind, pending_push_token_id, bouncer_public_key, encrypted_push_registration, push_token_updated_at, register_attempts
           FROM client_devices
          WHERE realm_id = ? AND register_due_at <= ? AND (register_claimed_until IS NULL OR register_claimed_until < ?)
          ORDER BY register_due_at LIMIT ? FOR UPDATE SKIP LOCKED`,
        [deps.realmId, now, now, limit],
      )
    ).rows as Omit<Claimed, 'register_claimed_until'>[];
    if (rows.length === 0) return [];
    // Milliseconds only, so that the stamp reads back equal from the database.
    const until = new Date(now.getTime() + CLAIM_LEASE_MS);
    await trx.raw('UPDATE client_devices SET register_claimed_until = ? WHERE id = ANY(?::int[])', [until, listParam(rows.map((r) => r.id))]);
    return rows.map((r) => ({ ...r, register_claimed_until: until }));
  });
}

/** When the next registration falls due or a claim on one runs out (ms), or null. */
export async function nextRegistrationDueAt(deps: AppDeps): Promise<number | null> {
  const row = (
    await deps.knex.raw(
      `SELECT min(CASE WHEN register_claimed_until > now() THEN register_claimed_until ELSE register_due_at END) AS next
         FROM client_devices WHERE realm_id = ? AND register_due_at IS NOT NULL`,
      [deps.realmId],
    )
  ).rows[0] as { next: Date | null } | undefined;
  return row?.next ? new Date(row.next).getTime() : null;
}

type Outcome = { registered: true } | { errorCode: string } | { retry: string };

async function ask(service: PushServiceConfig, deps: AppDeps, device: Claimed): Promise<Outcome> {
  try {
    await postToBouncer(
      service,
      'push/e2ee/register',
      {
        realm_uuid: realmUuid(service, deps.realmId),
        token_id: device.pending_push_token_id,
        encrypted_push_registration: device.encrypted_push_registration,
        bouncer_public_key: device.bouncer_public_key,
      },
      'form',
    );
    return { registered: true };
  } catch (error) {
    if (!(error instanceof BouncerError)) throw error;
    if (error.retryable) return { retry: error.message };
    if (error.code === 'MISSING_REMOTE_REALM') {
      // The service has not been told of the organization yet: the worker uploads it first.
      requestRealmUpload(deps);
      return { retry: error.message };
    }
    if (error.code !== null && SERVER_REFUSAL_CODES.has(error.code)) {
      console.error(`push registration of device ${device.id} refused by the push service: ${error.code}`);
      return { retry: error.message };
    }
    return { errorCode: error.code !== null && REGISTRATION_ERRORS.has(error.code) ? error.code : 'BAD_REQUEST' };
  }
}

/** Registers every due pending device with the service; returns how many were settled. */
export async function forwardDueRegistrations(deps: AppDeps, now = new Date()): Promise<number> {
  const service = deps.config.pushService;
  if (!service) return 0;
  const devices = await claim(deps, now);
  let settled = 0;
  for (const device of devices) {
    let outcome = await ask(service, deps, device);
    if ('retry' in outcome && Date.now() - new Date(device.push_token_updated_at).getTime() >= REGISTRATION_LIFETIME_MS) {
      console.error(`push registration of device ${device.id} expired: ${outcome.retry}`);
      outcome = { errorCode: 'REQUEST_EXPIRED' };
    }
    if (await settle(deps, service, device, outcome)) settled += 1;
  }
  return settled;
}

/**
 * Records the outcome, if the device's registration is still the one claimed (a new registration of
 * the device in the meantime releases the claim, and its own request follows).
 */
async function settle(deps: AppDeps, service: PushServiceConfig, device: Claimed, outcome: Outcome): Promise<boolean> {
  return inTransaction(deps, deps.realmId, async (uow) => {
    const mine = uow.trx('client_devices').where({ id: device.id, register_claimed_until: device.register_claimed_until });
    if ('retry' in outcome) {
      const attempt = device.register_attempts + 1;
      console.warn(`push registration of device ${device.id} will be retried: ${outcome.retry}`);
      await mine.update({
        register_attempts: attempt,
        register_claimed_until: null,
        register_due_at: new Date(Date.now() + registrationRetryDelayMs(attempt)),
      });
      return false;
    }
    const done = { encrypted_push_registration: null, bouncer_public_key: null, register_due_at: null, register_claimed_until: null };
    const update = { type: 'device', op: 'update', device_id: device.id };
    if ('registered' in outcome) {
      const changed = await mine.update({ ...done, push_token_id: device.pending_push_token_id, pending_push_token_id: null });
      if (changed === 0) return false;
      uow.emit({ ...update, push_token_id: device.pending_push_token_id, pending_push_token_id: null }, [device.user_id]);
      await dropSupersededLegacyTokens(uow, service, device.user_id, device.push_token_kind, device.pending_push_token_id);
    } else {
      const changed = await mine.update({ ...done, push_registration_error_code: outcome.errorCode });
      if (changed === 0) return false;
      uow.emit({ ...update, push_registration_error_code: outcome.errorCode }, [device.user_id]);
    }
    return true;
  });
}
