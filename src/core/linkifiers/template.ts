/**
 * RFC 6570 URL templates as Zulip reads them (its `uri_template` library): the same syntax
 * accepted and refused, the same variable names, and the same expansion of string values, so a
 * linkifier's links come out byte for byte as Zulip's.
 */
const ALPHA = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIGIT = '0123456789';
const HEX = '0123456789ABCDEFabcdef';
const UNRESERVED = `${ALPHA}${DIGIT}-._~`;
const RESERVED = ":/?#[]@!$&'()*+,;=";
const VAR_START = `${ALPHA}${DIGIT}_`;
const VAR_CHAR = `${VAR_START}.`;

interface Variable {
  /** The name the template is checked against. */
  name: string;
  /** The value looked up (differs from the name only with the `name/key` form). */
  key: string;
  maxLength: number;
  explode: boolean;
  array: boolean;
  fallback: string | null;
}

type Operator = '' | '+' | '#' | '.' | '/' | ';' | '?' | '&' | ',' | ',+';

interface Expression {
  operator: Operator;
  variables: Variable[];
  trailingJoiner: string;
}

type Part = { literal: string } | { expression: Expression };

export interface UrlTemplate {
  parts: Part[];
  /** Distinct variable names, in order of appearance. */
  variableNames: string[];
}

class InvalidTemplate extends Error {}

/** The parsed template, or null when Zulip would refuse it ("Invalid URL template."). */
export function parseUrlTemplate(template: string): UrlTemplate | null {
  try {
    const parts = template
      .split(/(\{[^}]*\})/)
      .filter((part) => part !== '')
      .map(parsePart);
    const names: string[] = [];
    for (const part of parts) {
      if (!('expression' in part)) continue;
      for (const variable of part.expression.variables) if (!names.includes(variable.name)) names.push(variable.name);
    }
    return { parts, variableNames: names };
  } catch (error) {
    if (error instanceof InvalidTemplate) return null;
    throw error;
  }
}

function parsePart(part: string): Part {
  if (part.startsWith('{') && part.endsWith('}') && part.length >= 2) {
    return { expression: parseExpression(part.slice(1, -1)) };
  }
  if (part.includes('{') || part.includes('}')) throw new InvalidTemplate();
  return { literal: part };
}

function parseExpression(body: string): Expression {
  let operator: Operator;
  let rest: string;
  // Python's `.*$` here: the rest holds no newline but perhaps one at its very end.
  if (/^([a-zA-Z0-9_]|%[0-9a-fA-F]{2})[^\n]*\n?$/.test(body)) [operator, rest] = ['', body];
  else if (body.startsWith(',+')) [operator, rest] = [',+', body.slice(2)];
  else if ('+#./;?&,'.includes(body[0] ?? '\0') && body.length > 0) [operator, rest] = [body[0] as Operator, body.slice(1)];
  else throw new InvalidTemplate();
  let trailingJoiner = '';
  if (rest !== '' && ',./;&'.includes(rest[rest.length - 1])) {
    trailingJoiner = rest[rest.length - 1];
    rest = rest.slice(0, -1);
  }
  return { operator, variables: rest.split(',').map(parseVariable), trailingJoiner };
}

function parseVariable(spec: string): Variable {
  if (spec === '' || !VAR_START.includes(spec[0])) throw new InvalidTemplate();
  let fallback: string | null = null;
  const eq = spec.indexOf('=');
  if (eq >= 0) [spec, fallback] = [spec.slice(0, eq), spec.slice(eq + 1)];
  let maxLength = 0;
  let explode = false;
  let array = false;
  const colon = spec.indexOf(':');
  if (colon >= 0) {
    const digits = spec.slice(colon + 1);
    if (!/^[0-9]{1,3}$/.test(digits) || Number(digits) === 0) throw new InvalidTemplate();
    maxLength = Number(digits);
    spec = spec.slice(0, colon);
  } else if (spec.endsWith('*')) {
    spec = spec.slice(0, -1);
    explode = true;
  } else if (spec.endsWith('[]')) {
    spec = spec.slice(0, -2);
    array = true;
    explode = true;
  }
  let name = '';
  let key = '';
  for (let i = 0; i < spec.length; i++) {
    const c = spec[i];
    if (c === '%' && i + 2 < spec.length && HEX.includes(spec[i + 1]) && HEX.includes(spec[i + 2])) {
      key += spec.slice(i, i + 3);
      i += 2;
    } else if (VAR_CHAR.includes(c)) {
      key += c;
    } else if (c === '/') {
      name = key;
      key = '';
    } else {
      throw new InvalidTemplate();
    }
  }
  name ||= key;
  key ||= name;
  return { name, key, maxLength, explode, array, fallback };
}

const utf8 = new TextEncoder();

/** Keeps `legal` characters (and, if allowed, existing %XX escapes); percent-encodes the rest as UTF-8. */
function encode(value: string, legal: string, keepEscapes: boolean): string {
  let out = '';
  const chars = Array.from(value);
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (legal.includes(c)) {
      out += c;
    } else if (keepEscapes && c === '%' && i + 2 < chars.length && HEX.includes(chars[i + 1]) && HEX.includes(chars[i + 2])) {
      out += c + chars[i + 1] + chars[i + 2];
      i += 2;
    } else {
      for (const byte of utf8.encode(c)) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    }
  }
  return out;
}

const ALLOWS_RESERVED = new Set<Operator>(['+', '#', ',+']);
const PREFIX: Record<Operator, string> = { '': '', '+': '', '#': '#', '.': '.', '/': '/', ';': ';', '?': '?', '&': '&', ',': ',', ',+': ',' };
const JOINER: Record<Operator, string> = { '': ',', '+': ',', '#': ',', '.': '.', '/': '/', ';': ';', '?': '&', '&': '&', ',': ',', ',+': ',' };

/** One variable with a string value. */
function expandVariable(operator: Operator, variable: Variable, value: string): string {
  const cut = variable.maxLength ? Array.from(value).slice(0, variable.maxLength).join('') : value;
  const encoded = ALLOWS_RESERVED.has(operator) ? encode(cut, UNRESERVED + RESERVED, true) : encode(cut, UNRESERVED, false);
  if (operator !== ';' && operator !== '?' && operator !== '&') return encoded;
  const name = encode(variable.name, UNRESERVED + RESERVED, true);
  if (variable.explode) return `${name}=${encoded}`;
  if (operator === ';' && encoded === '') return variable.name;
  return `${name}=${encoded}`;
}

/**
 * Expands the template with string values; a variable whose value is null or absent (and has no
 * default) is left out, as are expressions left with nothing.
 */
export function expandUrlTemplate(template: UrlTemplate, values: ReadonlyMap<string, string | null>): string {
  let out = '';
  for (const part of template.parts) {
    if ('literal' in part) {
      out += encode(part.literal, UNRESERVED + RESERVED, true);
      continue;
    }
    const { operator, variables, trailingJoiner } = part.expression;
    const expanded: string[] = [];
    for (const variable of variables) {
      const value = values.has(variable.key) ? values.get(variable.key)! : variable.fallback;
      if (value !== null && value !== undefined) expanded.push(expandVariable(operator, variable, value));
    }
    if (expanded.length > 0) out += (trailingJoiner ? '' : PREFIX[operator]) + expanded.join(JOINER[operator]) + trailingJoiner;
  }
  return out;
}
