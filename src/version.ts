/**
 * What the server tells clients about itself. Clients gate behaviour on the feature level, so it is
 * the level whose behaviour this server implements; the version names the Zulip release it matches.
 */
export const FEATURE_LEVEL = 485;
export const PARLEY_VERSION = '0.1.0';
export const SERVICE_VERSION = `11.0-parley-${PARLEY_VERSION}`;

export function versionFields() {
  return {
    service_feature_level: FEATURE_LEVEL,
    service_version: SERVICE_VERSION,
    zulip_feature_level: FEATURE_LEVEL,
    zulip_version: SERVICE_VERSION,
  };
}
