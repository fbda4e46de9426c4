import { ApiError, errors } from '../../errors';

/**
 * Reading a third party's JSON: each accessor names the path it read, so a payload missing a field
 * or holding the wrong type is answered as Zulip's validators answer (`payload["x"] is missing`).
 */
export type Json = unknown;

const path = (parent: string, key: string | number) => `${parent}[${JSON.stringify(key)}]`;

export class Field {
  constructor(
    readonly value: Json,
    readonly name: string,
  ) {}

  has(key: string): boolean {
    return isObject(this.value) && key in this.value && this.value[key] !== undefined;
  }

  /** A member that must be present. */
  get(key: string): Field {
    if (!isObject(this.value)) throw errors.badRequest(`${this.name} is not a dict`);
    if (!(key in this.value)) throw errors.badRequest(`${path(this.name, key)} is missing`);
    return new Field(this.value[key], path(this.name, key));
  }

  /** A member that may be absent or null. */
  opt(key: string): Field | null {
    if (!isObject(this.value) || this.value[key] === undefined || this.value[key] === null) return null;
    return new Field(this.value[key], path(this.name, key));
  }

  str(): string {
    if (typeof this.value !== 'string') throw errors.badRequest(`${this.name} is not a string`);
    return this.value;
  }

  strOrNull(): string | null {
    return this.value === null ? null : this.str();
  }

  int(): number {
    if (typeof this.value !== 'number' || !Number.isInteger(this.value)) throw errors.badRequest(`${this.name} is not an integer`);
    return this.value;
  }

  bool(): boolean {
    if (typeof this.value !== 'boolean') throw errors.badRequest(`${this.name} is not a boolean`);
    return this.value;
  }

  list(): Field[] {
    if (!Array.isArray(this.value)) throw errors.badRequest(`${this.name} is not a list`);
    return this.value.map((item, i) => new Field(item, path(this.name, i)));
  }

  entries(): [string, Field][] {
    if (!isObject(this.value)) throw errors.badRequest(`${this.name} is not a dict`);
    return Object.entries(this.value).map(([k, v]) => [k, new Field(v, path(this.name, k))]);
  }

  /** Truthy as Python reads it (Zulip's integrations test `if payload.get(...)`). */
  truthy(): boolean {
    const v = this.value;
    if (Array.isArray(v)) return v.length > 0;
    if (isObject(v)) return Object.keys(v).length > 0;
    return Boolean(v);
  }
}

function isObject(value: Json): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const payloadOf = (value: Json) => new Field(value, 'payload');

export const unsupportedEvent = (integration: string, event: string) =>
  new ApiError('UNSUPPORTED_WEBHOOK_EVENT_TYPE', `The '${event}' event isn't currently supported by the ${integration} webhook; ignoring`, 400, {
    webhook_name: integration,
    event_type: event,
  });

export const missingEventHeader = (header: string) => new ApiError('MISSING_HTTP_EVENT_HEADER', `Missing the HTTP event header '${header}'`, 400, { header });

/** Python's str.isspace-free check used by Zulip's git messages: ends with ASCII punctuation. */
export const endsWithPunctuation = (text: string) => text.length > 0 && /[!-/:-@[-`{-~]$/.test(text);

/** Python's json.dumps(value, indent=2) (ASCII only, as its default ensure_ascii). */
export function pythonJsonDump(value: Json): string {
  return JSON.stringify(value, null, 2).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Zulip's datetime_to_global_time: `<time:...>` with Python's isoformat of the given instant. */
export function globalTime(iso: string): string {
  const match = /^(\d{4}-\d\d-\d\d)[T ](\d\d:\d\d(?::\d\d)?)(?:\.(\d+))?(Z|[+-]\d\d:?\d\d)?$/i.exec(iso.trim());
  if (!match) throw errors.badRequest(`Invalid isoformat string: '${iso}'`);
  const [, date, time, fraction, zone] = match;
  const seconds = time.length === 5 ? `${time}:00` : time;
  const micros = fraction ? fraction.slice(0, 6).padEnd(6, '0') : '';
  const frac = micros && Number(micros) !== 0 ? `.${micros}` : '';
  const offset = zone === undefined ? '' : zone.toUpperCase() === 'Z' ? '+00:00' : zone.includes(':') ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
  return `<time:${date}T${seconds}${frac}${offset}>`;
}
