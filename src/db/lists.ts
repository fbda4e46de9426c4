import type { Knex } from 'knex';
import { MAX_ROW_ID } from './ids';

/**
 * Lists go to PostgreSQL as one array parameter (`column = ANY(?::int[])`), never one parameter
 * per item as knex's whereIn sends them: a statement takes at most 65,535 parameters, and every
 * list length would otherwise be a different statement to plan. Every list of ids a client sends
 * and every list whose length the data decides is passed this way.
 */
export type SqlListType = 'int' | 'bigint' | 'text';

const MIN_INT = -MAX_ROW_ID - 1;

/**
 * The values an `int` column can hold: a larger number cannot equal any row's value, and sending
 * it would fail ("out of range") instead of matching nothing.
 */
function storable(values: readonly (number | string)[], type: SqlListType): readonly (number | string)[] {
  if (type !== 'int') return values;
  return values.filter((v) => typeof v === 'number' && Number.isInteger(v) && v >= MIN_INT && v <= MAX_ROW_ID);
}

/** The list as one array binding, for raw SQL: `= ANY(${arrayParam})` with `[listParam(ids)]`. */
export function listParam(values: readonly (number | string)[], type: SqlListType = 'int'): Knex.RawBinding {
  return [...storable(values, type)] as Knex.RawBinding;
}

/** `column = ANY(list)`, for `query.whereRaw(...anyOf('id', ids))`. */
export function anyOf(column: string, values: readonly (number | string)[], type: SqlListType = 'int'): [string, Knex.RawBinding[]] {
  return [`?? = ANY(?::${type}[])`, [column, listParam(values, type)]];
}

/** `column` is none of the list (`<> ALL`), for `query.whereRaw(...noneOf('id', ids))`. */
export function noneOf(column: string, values: readonly (number | string)[], type: SqlListType = 'int'): [string, Knex.RawBinding[]] {
  return [`?? <> ALL(?::${type}[])`, [column, listParam(values, type)]];
}
