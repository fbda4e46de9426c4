import { errors } from '../errors';
import { Param } from './endpoint';

/**
 * include_subscribers of POST /register and GET /users/me/subscriptions: JSON true/false, or
 * "partial" (accepted JSON-quoted or bare, as clients send it).
 */
export const includeSubscribers = () =>
  new Param<boolean | 'partial'>((raw, name) => {
    const value = raw.trim();
    if (value === 'partial' || value === '"partial"') return 'partial';
    if (value === 'true' || value === 'false') return value === 'true';
    throw errors.badRequest(`Invalid ${name}`);
  });
