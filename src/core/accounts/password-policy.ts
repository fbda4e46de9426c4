import { zxcvbn, zxcvbnOptions } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';
import type { AppDeps } from '../deps';
import { ApiError } from '../../errors';

/**
 * The strength rule every new password meets (settings, reset page, operator, POST /users): Zulip's defaults,
 * at least PASSWORD_MIN_LENGTH characters and zxcvbn's estimate of PASSWORD_MIN_GUESSES guesses.
 */
export const MIN_PASSWORD_LENGTH = 6;
export const MIN_PASSWORD_GUESSES = 10_000;
const MAX_LENGTH = 1024;

let configured = false;

/** The refusal of a new password chosen on the reset page (Zulip's signup wording). */
export const passwordTooWeak = () => new ApiError('PASSWORD_TOO_WEAK', 'The password is too weak.', 400);

export function isStrongPassword(password: string): boolean {
  if (password.length < MIN_PASSWORD_LENGTH || password.length > MAX_LENGTH) return false;
  if (!configured) {
    zxcvbnOptions.setOptions({ dictionary, graphs: adjacencyGraphs });
    configured = true;
  }
  // The estimate is only as slow as the password is long; 100 characters is plenty to judge.
  return zxcvbn(password.slice(0, 100)).guesses >= MIN_PASSWORD_GUESSES;
}

/**
 * Every attempt to change an account's password (from the settings with the old one, or through a
 * reset link) counts against the account's address, the counter password logins use: guessing the
 * old password through the settings is no faster than through a login.
 */
export async function countPasswordAttempt(deps: AppDeps, email: string): Promise<void> {
  await deps.rateLimits.hit('authenticate_by_username', email.trim().toLowerCase());
}
