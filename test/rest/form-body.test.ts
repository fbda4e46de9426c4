import qs from 'qs';
import { parseForm, TOO_MANY_PARAMETERS } from '../../src/rest/form-body';
import { seededSequence } from '../helpers/random';

/**
 * The form reader must see every body as express.urlencoded({ extended: false }) does (body-parser
 * hands the body to qs with these options), once the router has reduced repeated names to their
 * last value.
 */
function asBodyParserReadsIt(body: string): Record<string, string> {
  const count = body.split('&').length;
  const parsed = qs.parse(body, {
    allowPrototypes: true,
    arrayLimit: count,
    depth: 0,
    charset: 'utf-8',
    parameterLimit: 10_000,
    strictDepth: true,
  } as qs.IParseOptions);
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(parsed)) {
    const last = Array.isArray(value) ? value[value.length - 1] : value;
    if (typeof last === 'string') fields[name] = last;
    else if (last !== undefined && last !== null) fields[name] = typeof last === 'object' ? JSON.stringify(last) : String(last);
  }
  return fields;
}

function lastValues(fields: ReturnType<typeof parseForm>): Record<string, string> | null {
  if (fields === null || fields === TOO_MANY_PARAMETERS) return null;
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(fields)) {
    const last: unknown = Array.isArray(value) ? value[value.length - 1] : value;
    out[name] = typeof last === 'string' ? last : JSON.stringify(last);
  }
  return out;
}

test('generated bodies read the same as through body-parser', () => {
  const pieces = [
    'a',
    'b',
    'to',
    '=',
    '=',
    '&',
    '&',
    '+',
    '%20',
    '%ZZ',
    '%',
    '%5B',
    '%5d',
    '[',
    ']',
    ']=',
    '[]',
    '__proto__',
    'toString',
    '%C3%A9',
    '%E2%82',
    'é',
    '0',
    '7',
    '%26',
    '%3D',
  ];
  const next = seededSequence(88172645);
  let bracketed = 0;
  for (let i = 0; i < 30_000; i++) {
    let body = '';
    for (let n = next() % 12; n > 0; n--) body += pieces[next() % pieces.length];
    if (/^\[|&\[|^%5b|&%5b/i.test(body)) bracketed++;
    expect([body, lastValues(parseForm(body))]).toEqual([body, asBodyParserReadsIt(body)]);
  }
  // Bodies that take qs's own path must be among them.
  expect(bracketed).toBeGreaterThan(500);
});

test('more than 10,000 fields are refused, as body-parser refuses them', () => {
  expect(parseForm(Array.from({ length: 10_001 }, () => 'a=1').join('&'))).toBe(TOO_MANY_PARAMETERS);
  expect(parseForm(Array.from({ length: 10_000 }, () => 'a=1').join('&'))).toEqual({ a: '1' });
});
