import { errors } from '../../errors';
import { v, Validator } from '../../validation/validate';
import { groupSettingChangeValidator, GroupSettingChange } from '../groups/setting-values';
import { LANGUAGES } from '../settings/catalog';
import { REALM_SETTINGS, RealmSettingSpec } from './catalog';

/**
 * How PATCH /realm (and its GraphQL mutation) decode each organization setting, with Zulip's
 * messages. Values arrive JSON-decoded, except `rawString` settings, which are sent as plain
 * strings.
 */
export const MAX_REALM_NAME_LENGTH = 40;
export const MAX_REALM_DESCRIPTION_LENGTH = 1000;
const MAX_WELCOME_TEXT_LENGTH = 8000;
const MAX_JITSI_URL_LENGTH = 200;

/** Set by the server, never by the API. */
const NOT_SETTABLE = new Set(['push_notifications_enabled']);

/** Settings whose "unlimited" means no limit (null). */
const TIME_LIMITS = new Set([
  'message_content_edit_limit_seconds',
  'message_content_delete_limit_seconds',
  'move_messages_within_stream_limit_seconds',
  'move_messages_between_streams_limit_seconds',
]);

/** Zulip's organization types. */
const ORG_TYPES = [0, 10, 20, 30, 35, 40, 50, 60, 70, 80, 90, 100];

const badValue = (name: string, value: unknown) => errors.badRequest(`Bad value for '${name}': ${typeof value === 'string' ? value : JSON.stringify(value)}`);

/** A positive number of seconds or days, or the special value naming "no limit". */
const limitOrSpecial =
  (special: number | null): Validator<number | null> =>
  (value, name) => {
    if (value === 'unlimited') return special;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) throw badValue(name, value);
    return value;
  };

const intChoice =
  (choices: readonly number[], message: (value: number) => string): Validator<number> =>
  (value, name) => {
    const n = v.int()(value, name);
    if (!choices.includes(n)) throw errors.badRequest(message(n));
    return n;
  };

const jitsiUrl: Validator<string | null> = (value, name) => {
  const text = v.string()(value, name);
  if (text === 'default') return null;
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (!url || !['http:', 'https:'].includes(url.protocol) || text.length > MAX_JITSI_URL_LENGTH) {
    throw errors.badRequest(`${name} is not an allowed_type`);
  }
  return text;
};

const language: Validator<string> = (value, name) => {
  const text = v.string()(value, name);
  if (!(text in LANGUAGES)) throw errors.badRequest(`Invalid language '${text}'`);
  return text;
};

function validatorFor(spec: RealmSettingSpec): Validator<unknown> {
  if (spec.kind === 'group') return groupSettingChangeValidator;
  switch (spec.name) {
    case 'name':
      return v.string({ maxLength: MAX_REALM_NAME_LENGTH, emptyMessage: 'Organization name cannot be empty.' });
    case 'description':
      return v.string({ maxLength: MAX_REALM_DESCRIPTION_LENGTH });
    case 'welcome_message_custom_text':
      return v.string({ maxLength: MAX_WELCOME_TEXT_LENGTH });
    case 'default_language':
      return language;
    case 'jitsi_server_url':
      return jitsiUrl;
    case 'message_retention_days':
      return limitOrSpecial(-1);
    case 'waiting_period_threshold':
      return v.int({ min: 0 });
    case 'video_chat_provider':
      return intChoice(spec.choices as number[], (n) => `Invalid video_chat_provider ${n}`);
    case 'gif_rating_policy':
      return intChoice(spec.choices as number[], (n) => `Invalid gif_rating_policy ${n}`);
    case 'org_type':
      return intChoice(ORG_TYPES, () => 'Invalid org_type');
  }
  if (TIME_LIMITS.has(spec.name)) return limitOrSpecial(null);
  if (spec.choices) return v.oneOf(spec.choices as (string | number)[]) as Validator<unknown>;
  if (spec.kind === 'bool') return v.bool();
  if (spec.kind === 'int') return v.int();
  return v.string();
}

export interface RealmSettingInput {
  name: string;
  /** Sent as a plain string rather than JSON. */
  rawString: boolean;
  validate: Validator<unknown>;
}

export const REALM_SETTING_INPUTS: readonly RealmSettingInput[] = REALM_SETTINGS.filter((s) => !NOT_SETTABLE.has(s.name)).map((spec) => ({
  name: spec.name,
  rawString: spec.kind === 'string' && spec.name !== 'jitsi_server_url',
  validate: validatorFor(spec),
}));

const INPUTS_BY_NAME = new Map(REALM_SETTING_INPUTS.map((input) => [input.name, input]));

/** Decoded requested changes: plain values, or {new, old} for group settings. */
export type RealmSettingChanges = Record<string, unknown>;
export type { GroupSettingChange };

/** Validates already-decoded values (GraphQL); unknown names are refused. */
export function decodeRealmSettingChanges(input: Record<string, unknown>): RealmSettingChanges {
  const out: RealmSettingChanges = {};
  for (const [name, value] of Object.entries(input)) {
    const spec = INPUTS_BY_NAME.get(name);
    if (!spec) throw errors.badRequest(`Invalid setting: ${name}`);
    out[name] = spec.validate(value, name);
  }
  return out;
}
