/**
 * When the onboarding emails after a welcome email go out, as Zulip schedules them: counted from
 * the sign-up, by the weekday of the sign-up in the person's time zone (UTC when unset), so none
 * lands on a Saturday or Sunday and at least one weekday lies between two of them. Each is an
 * hour short of whole days, to arrive shortly before the hour the person joined.
 */
export type OnboardingEmail = 'zulip_topics' | 'zulip_guide' | 'team_to_zulip';

const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;

/** Whole days after the sign-up, by its ISO weekday (1 Monday .. 7 Sunday). */
const DAYS: Record<number, Record<OnboardingEmail, number>> = {
  1: { zulip_topics: 2, zulip_guide: 4, team_to_zulip: 8 },
  2: { zulip_topics: 2, zulip_guide: 6, team_to_zulip: 8 },
  3: { zulip_topics: 2, zulip_guide: 6, team_to_zulip: 8 },
  4: { zulip_topics: 4, zulip_guide: 6, team_to_zulip: 8 },
  5: { zulip_topics: 4, zulip_guide: 6, team_to_zulip: 10 },
  6: { zulip_topics: 2, zulip_guide: 4, team_to_zulip: 6 },
  7: { zulip_topics: 2, zulip_guide: 4, team_to_zulip: 8 },
};

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/** The ISO weekday of `at` in the time zone (an unknown zone counts as UTC). */
export function isoWeekday(at: Date, timezone: string): number {
  let name: string;
  try {
    name = new Intl.DateTimeFormat('en-US', { timeZone: timezone || 'UTC', weekday: 'short' }).format(at);
  } catch {
    name = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', weekday: 'short' }).format(at);
  }
  return WEEKDAYS.indexOf(name) + 1;
}

/** Each onboarding email's delay (ms) after a sign-up at `joinedAt` by someone in `timezone`. */
export function onboardingEmailDelays(joinedAt: Date, timezone: string): Record<OnboardingEmail, number> {
  const days = DAYS[isoWeekday(joinedAt, timezone)];
  return {
    zulip_topics: days.zulip_topics * DAY_MS - HOUR_MS,
    zulip_guide: days.zulip_guide * DAY_MS - HOUR_MS,
    team_to_zulip: days.team_to_zulip * DAY_MS - HOUR_MS,
  };
}
