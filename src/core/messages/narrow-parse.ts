import { ApiError, errors } from '../../errors';

/**
 * Narrows as clients send them: a list of `{operator, operand, negated?}` objects or legacy
 * `[operator, operand]` pairs. Operands are checked per operator as Zulip does (ids where ids are
 * accepted, a non-empty search string).
 */
export interface NarrowTerm {
  operator: string;
  operand: string | number | number[];
  negated: boolean;
}

const CHANNEL_OPERATORS = ['channel', 'stream'];
const OPERATORS_WITH_ID = [...CHANNEL_OPERATORS, 'id', 'sender', 'group-pm-with', 'dm-including', 'mentions', 'with'];
const OPERATORS_WITH_IDS = ['pm-with', 'dm'];

export const badNarrow = (desc: string) => new ApiError('BAD_NARROW', `Invalid narrow operator: ${desc}`, 400, { desc });

function checkOperand(operator: string, operand: unknown): NarrowTerm['operand'] {
  // Text with NUL cannot reach PostgreSQL; it is refused as every string parameter is.
  if (typeof operand === 'string' && operand.includes('\u0000')) throw errors.badRequest('operand contains NULL (0x00) characters.');
  if (OPERATORS_WITH_ID.includes(operator)) {
    if (typeof operand === 'string' || (typeof operand === 'number' && Number.isSafeInteger(operand))) return operand;
    throw errors.badRequest('operand is not a string or integer');
  }
  if (OPERATORS_WITH_IDS.includes(operator)) {
    if (typeof operand === 'string') return operand;
    if (Array.isArray(operand) && operand.every((id) => typeof id === 'number' && Number.isSafeInteger(id))) return operand as number[];
    throw errors.badRequest('operand is not a string or an integer list');
  }
  if (typeof operand !== 'string') throw errors.badRequest('operand is not a string');
  if (operator === 'search' && operand.trim() === '') throw errors.badRequest('operand cannot be blank.');
  return operand;
}

export function parseNarrow(value: unknown, name = 'narrow'): NarrowTerm[] {
  if (!Array.isArray(value)) throw errors.badRequest(`${name} is not a list`);
  return value.map((element, i) => {
    const where = `${name}[${i}]`;
    if (Array.isArray(element)) {
      if (element.length !== 2 || element.some((x) => typeof x !== 'string')) {
        throw errors.badRequest(`Invalid ${where}: element is not a string pair`);
      }
      return { operator: element[0], operand: checkOperand(element[0], element[1]), negated: false };
    }
    if (typeof element !== 'object' || element === null) throw errors.badRequest(`Invalid ${where}: dict or list required`);
    const term = element as Record<string, unknown>;
    if (term.operand === undefined || term.operand === null) throw errors.badRequest(`Invalid ${where}: operand is missing`);
    if (term.operator === undefined || term.operator === null) throw errors.badRequest(`Invalid ${where}: operator is missing`);
    if (typeof term.operator !== 'string') throw errors.badRequest('operator is not a string');
    const negated = term.negated ?? false;
    if (typeof negated !== 'boolean') throw errors.badRequest('negated is not a boolean');
    return { operator: term.operator, operand: checkOperand(term.operator, term.operand), negated };
  });
}

export const isChannelOperator = (operator: string) => CHANNEL_OPERATORS.includes(operator);
