/**
 * Which requests are counted, and how many each key may make: Zulip's RATE_LIMITING_RULES. A domain
 * holds one or more rules; a key is refused while it has used up any of them.
 */
export interface RateRule {
  seconds: number;
  requests: number;
}

export type RateDomain =
  /** Every authenticated request (REST, GraphQL over HTTP, each graphql-ws operation), per user. */
  | 'api_by_user'
  /** Every request without valid credentials, per client address. */
  | 'api_by_ip'
  /** Password logins, per username; a successful one clears the count. */
  | 'authenticate_by_username'
  /** Failed password logins from one address, whatever the username. */
  | 'authenticate_by_ip'
  /** Password-reset requests, per address asked about (whether or not it has an account). */
  | 'password_reset_form_by_email'
  /** Requests that send email to an address the requester names, per client address. */
  | 'sends_email_by_ip'
  /** Email-change requests, per user. */
  | 'email_change_by_user';

export type RateRules = Record<RateDomain, RateRule[]>;

/**
 * Zulip's defaults (zproject/default_settings.py). Zulip has no separate rule for failed logins
 * across usernames (its api_by_ip bounds them at 100 a minute); ten times the per-username
 * allowance keeps one address from trying a password on every account.
 */
export const DEFAULT_RATE_RULES: RateRules = {
  api_by_user: [{ seconds: 60, requests: 200 }],
  api_by_ip: [{ seconds: 60, requests: 100 }],
  authenticate_by_username: [{ seconds: 1800, requests: 5 }],
  authenticate_by_ip: [{ seconds: 1800, requests: 50 }],
  password_reset_form_by_email: [
    { seconds: 3600, requests: 2 },
    { seconds: 86400, requests: 5 },
  ],
  sends_email_by_ip: [{ seconds: 86400, requests: 5 }],
  email_change_by_user: [
    { seconds: 3600, requests: 2 },
    { seconds: 86400, requests: 5 },
  ],
};

/** The environment variable that overrides each domain's rules. */
export const RATE_RULE_VARIABLES: Record<RateDomain, string> = {
  api_by_user: 'PARLEY_RATE_LIMIT_API_BY_USER',
  api_by_ip: 'PARLEY_RATE_LIMIT_API_BY_IP',
  authenticate_by_username: 'PARLEY_RATE_LIMIT_AUTHENTICATE_BY_USERNAME',
  authenticate_by_ip: 'PARLEY_RATE_LIMIT_AUTHENTICATE_BY_IP',
  password_reset_form_by_email: 'PARLEY_RATE_LIMIT_PASSWORD_RESET_FORM_BY_EMAIL',
  sends_email_by_ip: 'PARLEY_RATE_LIMIT_SENDS_EMAIL_BY_IP',
  email_change_by_user: 'PARLEY_RATE_LIMIT_EMAIL_CHANGE_BY_USER',
};

/**
 * Rules written as Zulip writes a user's own limits: `seconds:requests`, several separated by
 * commas (e.g. `60:200` or `3600:2,86400:5`). Null when the text is not in that form.
 */
export function parseRateRules(text: string): RateRule[] | null {
  const rules: RateRule[] = [];
  for (const part of text.split(',')) {
    const match = /^\s*(\d{1,9})\s*:\s*(\d{1,9})\s*$/.exec(part);
    if (!match) return null;
    const rule = { seconds: Number(match[1]), requests: Number(match[2]) };
    if (rule.seconds < 1 || rule.requests < 1) return null;
    rules.push(rule);
  }
  // Shortest window first, as Zulip orders them; the longest one names the headers' limit.
  return rules.sort((a, b) => a.seconds - b.seconds);
}
