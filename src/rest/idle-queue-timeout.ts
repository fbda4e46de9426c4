import { errors } from '../errors';
import type { IdleQueueTimeout } from '../core/register/register';
import { parseJsonParam } from '../validation/validate';
import { Param } from './endpoint';

/**
 * idle_queue_timeout of POST /register (Zulip's feature level 481): a JSON integer of seconds, at
 * least 1, or "mobile" (accepted JSON-quoted, as zulip-flutter sends it, or bare, as clients that
 * pass strings through unencoded do). Anything else is "Invalid idle_queue_timeout".
 */
export const idleQueueTimeout = () =>
  new Param<IdleQueueTimeout>((raw, name) => {
    if (raw.trim() === 'mobile') return 'mobile';
    const value = parseJsonParam(raw, name);
    if (value === 'mobile') return value;
    if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
    throw errors.badRequest(`Invalid ${name}`);
  });
