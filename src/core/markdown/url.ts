/**
 * Link handling as Zulip does it: a fixed set of safe schemes, `http://` assumed when a link has
 * none, and links into the organization itself written relative.
 */
const HTML_SAFELISTED_SCHEMES = [
  'bitcoin',
  'geo',
  'im',
  'irc',
  'ircs',
  'magnet',
  'mailto',
  'matrix',
  'mms',
  'news',
  'nntp',
  'openpgp4fpr',
  'sip',
  'sms',
  'smsto',
  'ssh',
  'tel',
  'urn',
  'webcal',
  'wtai',
  'xmpp',
];
export const ALLOWED_SCHEMES = new Set(['http', 'https', 'ftp', 'file', ...HTML_SAFELISTED_SCHEMES]);

const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;

/** A link destination with Zulip's defaults applied: mailto for addresses, http for the rest. */
export function withDefaultScheme(url: string): string {
  const trimmed = url.trim();
  if (SCHEME.test(trimmed)) return trimmed;
  if (trimmed.startsWith('#')) return trimmed;
  // "//host/path" names a host; anything else starting with "/" is a path on this server.
  if (trimmed.startsWith('/') && !trimmed.startsWith('//')) return trimmed;
  const beforeQuery = trimmed.split(/[?#]/)[0];
  if (!trimmed.startsWith('//') && beforeQuery.includes('@') && !beforeQuery.includes('/')) return `mailto:${trimmed}`;
  return `http://${trimmed.replace(/^\/\//, '')}`;
}

/** Whether a (normalized) destination may be linked: a safe scheme, a local path or a fragment. */
export function isAllowedHref(href: string): boolean {
  const scheme = SCHEME.exec(href);
  if (!scheme) return (href.startsWith('/') && !href.startsWith('//')) || href.startsWith('#');
  return ALLOWED_SCHEMES.has(scheme[1].toLowerCase());
}

/** Links to the organization's own views and uploads open in place, so they are made relative. */
export function relativeToRealm(href: string, realmUrl: string | undefined): string {
  if (!realmUrl) return href;
  const prefix = `${realmUrl.replace(/\/+$/, '')}/`;
  if (href.startsWith(`${prefix}#`) || href.startsWith(`${prefix}user_uploads/`)) return href.slice(prefix.length);
  return href;
}

/** Zulip's encoding of names in narrow URLs: percent-encoding with "." in place of "%". */
export function encodeHashComponent(value: string): string {
  const encoded = encodeURIComponent(value).replace(/[!'()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return encoded.replace(/[%.]/g, (c) => (c === '%' ? '.' : '.2E'));
}

/** `9-general-chat` for channel 9 named "general chat". */
export function encodeChannel(id: number, name: string): string {
  return `${id}-${encodeHashComponent(name.replace(/ /g, '-'))}`;
}
