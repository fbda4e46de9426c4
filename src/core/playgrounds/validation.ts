import { errors } from '../../errors';
import { MAX_PYGMENTS_LANGUAGE_LENGTH } from './model';

/**
 * Any language name made of these characters is accepted, not only Pygments' own, so a playground
 * can serve a custom language (as code blocks accept any). "+-." is a range: "," is allowed too.
 */
const PYGMENTS_LANGUAGE = /^[ a-zA-Z0-9_+-./#]*$/;

/** The `pygments_language` parameter check, done as the request is read. */
export function checkPygmentsLanguage(value: string): string {
  if ([...value].length > MAX_PYGMENTS_LANGUAGE_LENGTH) {
    throw errors.badRequest(`pygments_language is too long (limit: ${MAX_PYGMENTS_LANGUAGE_LENGTH} characters)`);
  }
  if (!PYGMENTS_LANGUAGE.test(value)) throw errors.badRequest('Invalid characters in pygments language');
  return value;
}
