import type { IncomingMessage } from 'node:http';
import qs from 'qs';

/**
 * Form-encoded request bodies, read the way express.urlencoded({ extended: false }) reads them
 * (body-parser with qs), without its per-request machinery: the API's busiest requests are small
 * forms, and the generic reader cost about as much as the rest of sending a message to a small
 * channel. Only the plain case is read here (see `isPlainForm`); everything else goes to
 * express.urlencoded in body.ts.
 */
export const PARAMETER_LIMIT = 10_000;

/** What `parseForm` answers for a body of more than PARAMETER_LIMIT fields. */
export const TOO_MANY_PARAMETERS = Symbol('too many parameters');
type Fields = Record<string, string>;

const PLAIN_FORM_TYPE = /^application\/x-www-form-urlencoded(?:\s*;\s*charset="?utf-8"?)?$/i;

/**
 * A body this module reads: `application/x-www-form-urlencoded` in UTF-8, of a declared length,
 * not compressed.
 */
export function isPlainForm(req: IncomingMessage, maxBytes: number): boolean {
  const { headers } = req;
  if (!PLAIN_FORM_TYPE.test(headers['content-type'] ?? '')) return false;
  if (headers['transfer-encoding'] !== undefined) return false;
  const encoding = headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') return false;
  const length = headers['content-length'];
  return length !== undefined && /^\d+$/.test(length) && Number(length) <= maxBytes;
}

/** Reads a plain form's fields (as `parseForm` does); null for a body that cannot be read. */
export function readPlainForm(req: IncomingMessage, done: (fields: Fields | typeof TOO_MANY_PARAMETERS | null) => void): void {
  const expected = Number(req.headers['content-length']);
  const chunks: Buffer[] = [];
  let received = 0;
  let finished = false;
  const finish = (fields: Fields | typeof TOO_MANY_PARAMETERS | null) => {
    if (finished) return;
    finished = true;
    done(fields);
  };
  req.on('data', (chunk: Buffer) => {
    received += chunk.length;
    if (received <= expected) chunks.push(chunk);
  });
  req.on('end', () => {
    if (received !== expected) return finish(null);
    let text = (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString('utf8');
    // body-parser's decoder drops a byte-order mark.
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    finish(parseForm(text));
  });
  req.on('error', () => finish(null));
  req.on('aborted', () => finish(null));
}

/** qs's decoding of one key or value: `+` is a space, and a malformed escape is kept as written. */
function decode(text: string): string {
  if (text.indexOf('%') === -1) return text.indexOf('+') === -1 ? text : text.replace(/\+/g, ' ');
  const spaced = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/**
 * A form body's fields as the REST layer sees them after express.urlencoded (whose repeated names
 * the router reduces to their last value): the last value of a repeated name, without empty and
 * `__proto__` names. TOO_MANY_PARAMETERS past PARAMETER_LIMIT fields, which body-parser
 * refuses. Names starting with "[" follow qs's bracket rules, so such a body goes to qs itself.
 */
export function parseForm(body: string): Fields | typeof TOO_MANY_PARAMETERS | null {
  if (body.length === 0) return {};
  let count = 1;
  for (let at = body.indexOf('&'); at !== -1; at = body.indexOf('&', at + 1)) {
    if (++count > PARAMETER_LIMIT) return TOO_MANY_PARAMETERS;
  }
  // As qs does before splitting: escaped brackets count as brackets when finding a name's end.
  const text = body.indexOf('%') === -1 ? body : body.replace(/%5B/gi, '[').replace(/%5D/gi, ']');
  // A plain object takes names as a Map would: a repeated name keeps its first place and its last
  // value ("__proto__", the one name assignment would not store, is skipped below).
  const fields: Fields = {};
  for (const part of text.split('&')) {
    const bracketEquals = part.indexOf(']=');
    const at = bracketEquals === -1 ? part.indexOf('=') : bracketEquals + 1;
    const name = decode(at === -1 ? part : part.slice(0, at));
    if (name.startsWith('[')) return parseWithQs(body, count);
    if (name === '' || name === '__proto__') continue;
    fields[name] = at === -1 ? '' : decode(part.slice(at + 1));
  }
  return fields;
}

/**
 * qs with the options body-parser gives it for `extended: false`, so both readings agree. Its
 * repeated names come back as arrays, which the router reduces to their last value.
 */
function parseWithQs(body: string, parameterCount: number): Record<string, string> | null {
  const options = {
    allowPrototypes: true,
    arrayLimit: parameterCount,
    depth: 0,
    charset: 'utf-8' as const,
    parameterLimit: PARAMETER_LIMIT,
    strictDepth: true,
  };
  try {
    return qs.parse(body, options) as Record<string, string>;
  } catch {
    return null;
  }
}
