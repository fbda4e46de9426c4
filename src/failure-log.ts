import { types } from 'node:util';

/**
 * What the log says about an unexpected failure. Parameters of a failed statement may hold message
 * text, passwords or very long id lists, so a database error is described by its code, its message
 * (quoted values hidden), the statement (cut short) and the number and types of its parameters,
 * never their values. Every line is bounded.
 */
const MAX_STATEMENT = 500;
const MAX_MESSAGE = 300;
const MAX_STACK = 2000;

interface StatementFacts {
  sql: string;
  parameters: string;
}

const STATEMENT = Symbol('failed statement');

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text);

function typeName(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'array';
  if (types.isDate(value)) return 'date';
  if (Buffer.isBuffer(value)) return 'bytes';
  return typeof value;
}

/** "3 parameters: 2 number, 1 array (longest 100000 items)", whatever the values. */
export function describeParameters(values: readonly unknown[]): string {
  const counts = new Map<string, number>();
  let longest = 0;
  for (const value of values) {
    const type = typeName(value);
    counts.set(type, (counts.get(type) ?? 0) + 1);
    if (Array.isArray(value)) longest = Math.max(longest, value.length);
  }
  const types = [...counts].map(([type, n]) => `${n} ${type}`).join(', ');
  const arrays = longest > 0 ? ` (longest array ${longest} items)` : '';
  return `${values.length} parameter${values.length === 1 ? '' : 's'}${types ? `: ${types}` : ''}${arrays}`;
}

/** Remembers, on the error itself, which statement failed (called from knex's query-error event). */
export function recordFailedStatement(error: unknown, sql: string | undefined, bindings: readonly unknown[] | undefined): void {
  if (typeof error !== 'object' || error === null || sql === undefined) return;
  const facts: StatementFacts = { sql, parameters: describeParameters(bindings ?? []) };
  Object.defineProperty(error, STATEMENT, { value: facts, enumerable: false, configurable: true });
}

interface DatabaseErrorShape {
  code?: unknown;
  severity?: unknown;
  routine?: unknown;
  query?: unknown;
  params?: unknown;
  message?: unknown;
  [STATEMENT]?: StatementFacts;
}

function isDatabaseError(error: unknown): error is DatabaseErrorShape {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as DatabaseErrorShape;
  return e[STATEMENT] !== undefined || (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) && (e.severity !== undefined || e.routine !== undefined));
}

/** PostgreSQL quotes the offending value in many messages; names of types, columns etc. stay. */
function hideValues(message: string): string {
  return message.replace(
    /(\b(?:relation|column|type|encoding|constraint|table|function|operator|index|schema|database)\s+)?"([^"]*)"/g,
    (match, named: string | undefined) => (named ? match : '"…"'),
  );
}

function describeDatabaseError(error: DatabaseErrorShape): string {
  const facts = error[STATEMENT];
  const sql = facts?.sql ?? (typeof error.query === 'string' ? error.query : '');
  let message = typeof error.message === 'string' ? error.message : '';
  // knex puts the statement before the driver's message: "<sql> - <message>".
  if (sql && message.startsWith(`${sql} - `)) message = message.slice(sql.length + 3);
  const parameters = facts?.parameters ?? (Array.isArray(error.params) ? describeParameters(error.params) : 'parameters unknown');
  const code = typeof error.code === 'string' ? error.code : '?';
  const routine = typeof error.routine === 'string' ? ` (${error.routine})` : '';
  return `database error ${code}${routine}: ${cut(hideValues(message), MAX_MESSAGE)}; statement: ${cut(sql.replace(/\s+/g, ' '), MAX_STATEMENT)}; ${parameters}`;
}

/** One bounded line (or short stack) describing an unexpected error, safe to log. */
export function describeFailure(error: unknown): string {
  // objection wraps the driver's error (DBError) and keeps it as nativeError.
  const native = (error as { nativeError?: unknown } | null)?.nativeError;
  if (isDatabaseError(native)) return describeDatabaseError(native);
  if (isDatabaseError(error)) return describeDatabaseError(error);
  if (types.isNativeError(error)) return cut(error.stack ?? `${error.name}: ${error.message}`, MAX_STACK);
  return cut(String(error), MAX_STACK);
}

/** A request's path for the log: no query string (it may carry message text), cut short. */
export function describeUrl(url: string): string {
  const queryAt = url.indexOf('?');
  const path = queryAt < 0 ? url : `${url.slice(0, queryAt)}?…`;
  // The secrets of confirmation links are path segments.
  return cut(path.replace(/^(\/(?:accounts\/password\/reset|accounts\/confirm_new_email|join)\/)[^/?]+/, '$1…'), 200);
}
