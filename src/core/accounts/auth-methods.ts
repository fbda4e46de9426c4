import type { Config } from '../../config';

/**
 * The ways into the organization, as GET /server_settings and the login page list them. External
 * methods (single sign-on) are those whose login starts with a redirect to another site.
 */
export interface ExternalAuthMethod {
  name: string;
  display_name: string;
  display_icon: string | null;
  login_url: string;
  signup_url: string;
}

export function authenticationMethods(config: Config): Record<string, boolean> {
  return {
    password: true,
    dev: false,
    email: true,
    ldap: config.ldap !== null,
    remoteuser: false,
    github: false,
    azuread: false,
    gitlab: false,
    apple: false,
    google: false,
    saml: false,
    'openid connect': config.oidc !== null,
  };
}

export function externalAuthenticationMethods(config: Config): ExternalAuthMethod[] {
  if (!config.oidc) return [];
  return [
    {
      name: 'oidc',
      display_name: config.oidc.name,
      display_icon: null,
      login_url: '/accounts/login/social/oidc',
      signup_url: '/accounts/register/social/oidc',
    },
  ];
}
