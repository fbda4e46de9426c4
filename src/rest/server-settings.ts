import { getRealm, realmIconUrl } from '../core/realm/queries';
import { versionFields } from '../version';
import { endpoint } from './endpoint';
import type { Route } from './router';

export const serverRoutes: Route[] = [
  {
    method: 'GET',
    path: '/server_settings',
    endpoint: endpoint({
      auth: 'none',
      params: {},
      handler: async ({ deps }) => {
        const realm = await getRealm(deps);
        return {
          ...versionFields(),
          zulip_merge_base: versionFields().zulip_version,
          authentication_methods: {
            password: true,
            dev: false,
            email: true,
            ldap: false,
            remoteuser: false,
            github: false,
            azuread: false,
            gitlab: false,
            apple: false,
            google: false,
            saml: false,
            'openid connect': false,
          },
          external_authentication_methods: [],
          email_auth_enabled: true,
          require_email_format_usernames: true,
          push_notifications_enabled: deps.config.pushService !== null,
          is_incompatible: false,
          realm_uri: deps.config.externalUrl,
          realm_url: deps.config.externalUrl,
          realm_name: realm.name,
          realm_icon: realmIconUrl(realm),
          realm_description: realm.description,
          realm_web_public_access_enabled: false,
        };
      },
    }),
  },
];
