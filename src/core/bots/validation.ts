import { errors } from '../../errors';

/** Zulip's check_url for a service's URL: empty, or an absolute http(s) URL. */
export function checkServiceUrl(value: unknown, name: string): string {
  if (typeof value !== 'string') throw errors.badRequest(`${name} is not a string`);
  if (value === '') return value;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw errors.badRequest(`${name} is not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw errors.badRequest(`${name} is not a URL`);
  return value;
}
