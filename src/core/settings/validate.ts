import { errors } from '../../errors';
import { parseJsonParam } from '../../validation/validate';
import { MAX_EMAIL_BATCHING_SECONDS, NOTIFICATION_SOUNDS, SETTINGS, SettingSpec, SettingsMap, SettingValue } from './catalog';

/**
 * Checks one setting value (already decoded: a boolean, number or string) against its catalog entry,
 * with Zulip's messages. REST and GraphQL both come through here.
 */
export function checkSettingValue(spec: SettingSpec, value: unknown): SettingValue {
  const { name } = spec;
  if (spec.kind === 'bool') {
    if (typeof value !== 'boolean') throw errors.badRequest(`${name} is not a boolean`);
    return value;
  }
  if (spec.kind === 'int') {
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw errors.badRequest(`${name} is not an integer`);
    if (name === 'email_notifications_batching_period_seconds' && (value <= 0 || value > MAX_EMAIL_BATCHING_SECONDS)) {
      throw errors.badRequest(`Invalid email batching period: ${value} seconds`);
    }
  } else {
    if (typeof value !== 'string') throw errors.badRequest(`${name} is not a string`);
    if (name === 'notification_sound' && value !== 'none' && !(NOTIFICATION_SOUNDS as readonly string[]).includes(value)) {
      throw errors.badRequest(`Invalid notification sound '${value}'`);
    }
  }
  if (spec.choices && !spec.choices.includes(value)) throw errors.badRequest(`Invalid ${name}`);
  if (spec.range) {
    if ((value as number) < spec.range.min) throw errors.badRequest(`${name} is too small`);
    if ((value as number) > spec.range.max) throw errors.badRequest(`${name} is too large`);
  }
  return value;
}

/** REST form values: booleans and integers arrive JSON-encoded, strings as sent. */
export function decodeSettingParam(spec: SettingSpec, raw: string): SettingValue {
  const value = spec.kind === 'string' ? raw : parseJsonParam(raw, spec.name);
  return checkSettingValue(spec, value);
}

/** Validates a whole request's worth of settings, in catalog order, before anything changes. */
export function checkSettings(values: Record<string, unknown>, allowed: (spec: SettingSpec) => boolean): SettingsMap {
  const out: SettingsMap = {};
  for (const spec of SETTINGS) {
    const value = values[spec.name];
    if (value === undefined || value === null || !allowed(spec)) continue;
    out[spec.name] = checkSettingValue(spec, value);
  }
  return out;
}

/** Zulip accepts any time zone name the zoneinfo database knows. */
export function checkTimezone(value: string): string {
  if (value === '' || value !== value.trim()) throw errors.badRequest('Invalid timezone');
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
  } catch {
    throw errors.badRequest('Invalid timezone');
  }
  return value;
}
