import type { MiddlewareFn } from 'type-graphql';
import { errors } from '../errors';

/**
 * Text with NUL characters cannot be stored or looked up in PostgreSQL. REST refuses it in every
 * string parameter (src/validation/validate.ts); GraphQL arguments get the same answer here, once for
 * every field. Message text and topics are let through: their own checks answer with Zulip's
 * message for them ("Message must not contain null bytes").
 */
const OWN_CHECKS = new Set(['content', 'topic']);

function findNul(value: unknown, name: string): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? name : null;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = findNul(item, `${name}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (OWN_CHECKS.has(key)) continue;
      const found = findNul(item, `${name}.${key}`);
      if (found) return found;
    }
  }
  return null;
}

export const refuseNulArguments: MiddlewareFn = ({ args }, next) => {
  for (const [name, value] of Object.entries(args)) {
    if (OWN_CHECKS.has(name)) continue;
    const found = findNul(value, name);
    if (found) throw errors.badRequest(`${found} contains NULL (0x00) characters.`);
  }
  return next();
};
