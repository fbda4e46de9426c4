import fs from 'node:fs';
import path from 'node:path';

/**
 * A JSON shape as the fixture describes it (Zulip's API description, simplified): a type, maybe
 * nullable, alternatives, nested properties, array items, or map values.
 */
export interface Shape {
  type?: 'integer' | 'number' | 'string' | 'boolean' | 'array' | 'object' | 'any';
  nullable?: boolean;
  oneOf?: Shape[];
  enum?: unknown[];
  items?: Shape;
  properties?: Record<string, Shape>;
  required?: string[];
  values?: Shape;
  /** Top level only: the fetch_event_types values that select the key. */
  fetch?: string[];
  deprecated?: boolean;
  /** Top level only: sent only to clients without the user_settings_object capability. */
  legacySettings?: boolean;
}

export const ZULIP_REGISTER_KEYS: Record<string, Shape> = JSON.parse(
  fs.readFileSync(path.join(__dirname, 'fixtures', 'zulip-register-response.json'), 'utf8'),
).keys;

export interface WalkOptions {
  /** Paths ("user_settings", "realm_users[]", "gif_rating_options{}") whose objects must carry every documented property. */
  complete: Set<string>;
  /** Documented properties allowed to be absent at a path (e.g. fields sent only for bots). */
  optional: Record<string, string[]>;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every way `value` differs from `shape`, as "path: problem" lines (empty when it conforms). */
export function shapeErrors(value: unknown, shape: Shape, at: string, options: WalkOptions): string[] {
  if (value === null) return shape.nullable || shape.type === 'any' ? [] : [`${at}: null where ${shape.type ?? 'a value'} is documented`];
  if (shape.oneOf) {
    const attempts = shape.oneOf.map((alt) => shapeErrors(value, { ...alt, nullable: shape.nullable }, at, options));
    if (attempts.some((errors) => errors.length === 0)) return [];
    return [`${at}: matches none of the documented alternatives (${attempts.map((e) => e[0]).join('; ')})`];
  }
  if (shape.enum && !shape.enum.includes(value)) return [`${at}: ${JSON.stringify(value)} is not one of ${JSON.stringify(shape.enum)}`];
  switch (shape.type) {
    case undefined:
    case 'any':
      return [];
    case 'integer':
      return Number.isInteger(value) ? [] : [`${at}: ${JSON.stringify(value)} is not an integer`];
    case 'number':
      return typeof value === 'number' ? [] : [`${at}: ${JSON.stringify(value)} is not a number`];
    case 'string':
      return typeof value === 'string' ? [] : [`${at}: ${JSON.stringify(value)} is not a string`];
    case 'boolean':
      return typeof value === 'boolean' ? [] : [`${at}: ${JSON.stringify(value)} is not a boolean`];
    case 'array': {
      if (!Array.isArray(value)) return [`${at}: is not an array`];
      const items = shape.items;
      return items ? value.flatMap((item) => shapeErrors(item, items, `${at}[]`, options)) : [];
    }
    case 'object': {
      if (!isPlainObject(value)) return [`${at}: is not an object`];
      const out: string[] = [];
      const documented = shape.properties ?? {};
      const mustHave = new Set(options.complete.has(at) ? Object.keys(documented) : (shape.required ?? []));
      for (const name of options.optional[at] ?? []) mustHave.delete(name);
      for (const name of mustHave) if (!(name in value)) out.push(`${at}.${name}: missing`);
      for (const [name, inner] of Object.entries(documented)) {
        if (name in value) out.push(...shapeErrors(value[name], inner, `${at}.${name}`, options));
      }
      const values = shape.values;
      if (values) {
        for (const [name, inner] of Object.entries(value)) {
          if (!(name in documented)) out.push(...shapeErrors(inner, values, `${at}{}`, options));
        }
      }
      return out;
    }
  }
}
