import { RE2JS, RE2JSCompileException, RE2JSSyntaxException } from 're2js';

/**
 * Linkifier patterns are RE2 regular expressions, as in Zulip: Python-style named groups
 * (`(?P<id>...)`), no backreferences or lookaround, matching in linear time. Errors read as
 * Zulip's, which come from RE2's own wording ("missing ): (foo").
 */

/** RE2's wording for each parser error (the engine used here words some differently). */
const RE2_WORDING: Record<string, string> = {
  'missing closing )': 'missing )',
  'missing closing ]': 'missing ]',
  'unexpected )': 'unexpected )',
  'trailing backslash at end of expression': 'trailing \\',
  'missing argument to repetition operator': 'no argument for repetition operator',
  'invalid repeat count': 'invalid repetition size',
  'invalid nested repetition operator': 'bad repetition operator',
  'bad repetition operator': 'bad repetition operator',
  'invalid or unsupported Perl syntax': 'invalid perl operator',
  'invalid named capture': 'invalid named capture group',
  'invalid escape sequence': 'invalid escape sequence',
  'invalid character class': 'invalid character class',
  'invalid character class range': 'invalid character class range',
  'invalid UTF-8': 'invalid UTF-8',
};

export type CompiledPattern = { ok: true; regex: RE2JS; groupNames: string[] } | { ok: false; error: string };

/** Compiles a pattern as RE2 does; `error` is the text after "Bad regular expression: ". */
export function compileRe2(pattern: string): CompiledPattern {
  try {
    const regex = RE2JS.compile(pattern);
    return { ok: true, regex, groupNames: Object.keys(regex.namedGroups()) };
  } catch (error) {
    // RE2 refuses programs past its size limit with these words.
    if (error instanceof RE2JSCompileException) return { ok: false, error: 'pattern too large - compile failed' };
    if (!(error instanceof RE2JSSyntaxException)) return { ok: false, error: 'unexpected error' };
    return { ok: false, error: re2Message(error.error, error.input, pattern) };
  }
}

function re2Message(code: string, input: string | null, pattern: string): string {
  if (code === 'duplicate capture group name' && input !== null) {
    // RE2 reports a repeated name as a bad named group, quoting how it was written.
    const written = pattern.includes(`(?P<${input}>`) ? `(?P<${input}>` : `(?<${input}>`;
    return `invalid named capture group: ${written}`;
  }
  if (code === 'invalid named capture' && input !== null && /^\(\?<[=!]/.test(input)) {
    // Lookbehind: RE2 names the operator.
    return `invalid perl operator: ${input.slice(0, 4)}`;
  }
  const text = RE2_WORDING[code] ?? code;
  if (code === 'trailing backslash at end of expression' || input === null || input === '') return text;
  return `${text}: ${input}`;
}

/** How Zulip quotes a name in these messages (Python's repr of a string). */
export function pythonRepr(value: string): string {
  if (value.includes("'") && !value.includes('"')) return `"${value}"`;
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}
