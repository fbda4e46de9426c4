import type { AppDeps } from '../deps';
import { versionFields } from '../../version';
import { authenticationMethods, externalAuthenticationMethods } from '../accounts/auth-methods';
import { getRealm, realmIconUrl } from './queries';

/** GET /server_settings: what a client may learn before signing in. */
export async function serverSettings(deps: AppDeps): Promise<Record<string, unknown>> {
  const realm = await getRealm(deps);
  return {
    ...versionFields(),
    zulip_merge_base: versionFields().zulip_version,
    authentication_methods: authenticationMethods(deps.config),
    external_authentication_methods: externalAuthenticationMethods(deps.config),
    email_auth_enabled: true,
    // Directory usernames are not addresses when the directory supplies the address.
    require_email_format_usernames: !(deps.config.ldap && deps.config.ldap.emailAttr !== null),
    push_notifications_enabled: deps.config.pushService !== null,
    is_incompatible: false,
    realm_uri: deps.config.externalUrl,
    realm_url: deps.config.externalUrl,
    realm_name: realm.name,
    realm_icon: realmIconUrl(realm),
    realm_description: realm.description,
    realm_web_public_access_enabled: false,
  };
}
