/**
 * Presence timing, as Zulip's defaults: clients ping every minute and treat a user as offline once
 * their last report is older than OFFLINE_THRESHOLD_SECS.
 */
export const OFFLINE_THRESHOLD_SECS = 200;
export const PRESENCE_PING_INTERVAL_SECS = 60;

/** Reports closer together than this do not touch the database (several open tabs ping). */
export const PRESENCE_UPDATE_MIN_FREQ_SECS = 55;

/**
 * A user whose last activity is older than this is "coming online" when they report activity, and
 * everyone is told at once rather than at their next poll.
 */
export const NEWLY_ONLINE_AFTER_SECS = OFFLINE_THRESHOLD_SECS - PRESENCE_PING_INTERVAL_SECS - 10;

/** In the legacy format a user counts as active while their activity is this close to their last connection. */
export const LEGACY_ACTIVE_WINDOW_SECS = 70;

/** Beyond this many active users, "came online" events stop (they cost O(users²)); polling remains. */
export const USER_LIMIT_FOR_PRESENCE_EVENTS = 100;

/** History returned when a client does not say how far back it wants presence data. */
export const DEFAULT_HISTORY_LIMIT_DAYS = 14;

/** How far back an invisible user's last connection is placed: safely past the offline threshold. */
export const INVISIBLE_OFFSET_SECS = OFFLINE_THRESHOLD_SECS + 120;
