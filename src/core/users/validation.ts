import { errors } from '../../errors';
import { isValidEmail } from '../../validation/email';
import { isStrongPassword } from '../accounts/password-policy';

export const MAX_NAME_LENGTH = 100;
export const MIN_NAME_LENGTH = 2;
// Characters that would break mention syntax (@**Name**) or quoting.
const NAME_INVALID_CHARS = ['*', '`', '\\', '>', '"', '@'];

export function checkFullName(raw: string): string {
  const name = raw.trim();
  if (name.length > MAX_NAME_LENGTH) throw errors.badRequest('Name too long!');
  if (name.length < MIN_NAME_LENGTH) throw errors.badRequest('Name too short!');
  if (NAME_INVALID_CHARS.some((c) => name.includes(c)) || /\p{C}/u.test(name)) {
    throw errors.badRequest('Invalid characters in name!');
  }
  // "Name|123" is how mentions disambiguate users; a name must not look like one.
  if (/\|\d+$/.test(name)) throw errors.badRequest('Invalid format!');
  return name;
}

export function checkEmail(raw: string): string {
  const email = raw.trim();
  if (!isValidEmail(email)) throw errors.badRequest('Bad name or username');
  return email;
}

export function checkPassword(password: string): string {
  if (!isStrongPassword(password)) throw errors.badRequest('The password is too weak.');
  return password;
}
