import crypto from 'node:crypto';
import type { PushServiceConfig } from '../../config';
import type { AppDeps } from '../deps';
import { FEATURE_LEVEL, SERVICE_VERSION } from '../../version';
import { BouncerError, postToBouncer, realmUuid } from '../notifications/bouncer';
import { storedRealmSetting } from '../realm/setting-store';

/**
 * Telling the push service about this server's organization (POST remotes/server/analytics), as
 * Zulip's server does at start, hourly and when the service answers MISSING_REMOTE_REALM: the
 * service refuses E2EE registrations and notifications for an organization it has not been told of.
 * Form fields, each value JSON-encoded. Usage statistics are not shared: the count lists are empty.
 * A failure only logs a warning; the next upload is at the next hour or the next refusal.
 */

/** How often the organization is uploaded again, as Zulip's server's hourly job does. */
export const REALM_UPLOAD_INTERVAL_MS = 60 * 60 * 1000;

/** The organization's ownership proof at the service: stable, and secret like the server's key. */
export function realmUuidOwnerSecret(service: PushServiceConfig, realmId: number): string {
  const digest = crypto.createHmac('sha256', service.orgKey).update(`realm-owner:${service.orgId}:${realmId}`).digest('hex');
  return `zuliprealm_${digest.slice(0, 32)}`;
}

/** Zulip's realm data for the service (RealmDataForAnalytics): exactly these fields. */
export async function realmData(deps: AppDeps, service: PushServiceConfig): Promise<Record<string, unknown>> {
  const realm = await deps.knex('realms').where({ id: deps.realmId }).first('name', 'deactivated', 'date_created');
  const url = deps.config.externalUrl;
  return {
    id: deps.realmId,
    uuid: realmUuid(service, deps.realmId),
    uuid_owner_secret: realmUuidOwnerSecret(service, deps.realmId),
    host: new URL(url).host,
    url,
    name: realm?.name ?? deps.config.realmName,
    org_type: Number(await storedRealmSetting(deps.knex, deps.realmId, 'org_type', 0)),
    date_created: realm ? new Date(realm.date_created).getTime() / 1000 : Date.now() / 1000,
    deactivated: Boolean(realm?.deactivated),
    is_system_bot_realm: false,
    // The realm's enabled sign-in methods, named as Zulip names them.
    authentication_methods: {
      Email: true,
      ...(deps.config.ldap ? { LDAP: true } : {}),
      ...(deps.config.oidc ? { 'OpenID Connect': true } : {}),
    },
  };
}

/** Uploads the organization; true when the service took it. Never throws for the service's answers. */
export async function uploadRealms(deps: AppDeps): Promise<boolean> {
  const service = deps.config.pushService;
  if (!service) return false;
  const json = JSON.stringify;
  try {
    await postToBouncer(
      service,
      'server/analytics',
      {
        realm_counts: json([]),
        installation_counts: json([]),
        realmauditlog_rows: json([]),
        realms: json([await realmData(deps, service)]),
        version: json(SERVICE_VERSION),
        merge_base: json(SERVICE_VERSION),
        api_feature_level: json(FEATURE_LEVEL),
      },
      'form',
    );
    return true;
  } catch (error) {
    if (!(error instanceof BouncerError)) throw error;
    console.warn(`uploading the organization to the push service failed: ${error.message}`);
    return false;
  }
}

/**
 * Uploads asked for by a MISSING_REMOTE_REALM answer, per server process (the worker of that
 * process uploads on its next pass; the refused request is retried after that).
 */
const requested = new WeakSet<AppDeps>();

export function requestRealmUpload(deps: AppDeps): void {
  requested.add(deps);
}

/** Whether an upload was asked for since the last call; clears the request. */
export function takeRealmUploadRequest(deps: AppDeps): boolean {
  return requested.delete(deps);
}
