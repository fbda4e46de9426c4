/**
 * Row ids are PostgreSQL `integer`s. A larger number cannot name a row, and sending it in a query
 * would fail ("out of range") instead of finding nothing, so lookups check it first.
 */
export const MAX_ROW_ID = 2_147_483_647;

export function isRowId(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 1 && value <= MAX_ROW_ID;
}
