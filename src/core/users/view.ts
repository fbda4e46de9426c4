import crypto from 'node:crypto';
import type { Config } from '../../config';
import type { User } from './model';
import { EmailVisibility, isAdminRole, isGuestRole, isModeratorOrAbove, isOwnerRole } from './roles';

/**
 * Zulip-shaped user dictionaries, as one viewer is allowed to see them. REST returns these as they
 * are; GraphQL maps the same dictionaries onto its types.
 */
export interface UserDict {
  user_id: number;
  email: string;
  delivery_email: string | null;
  full_name: string;
  date_joined: string;
  is_active: boolean;
  is_owner: boolean;
  is_admin: boolean;
  is_guest: boolean;
  is_bot: boolean;
  bot_type: number | null;
  bot_owner_id: number | null;
  role: number;
  timezone: string;
  avatar_url?: string | null;
  avatar_version: number;
  /** Always false: this server creates no stub accounts (imported accounts keep their sign-in). */
  is_imported_stub: boolean;
  profile_data?: Record<string, { value: string; rendered_value?: string }>;
}

export interface ViewOptions {
  clientGravatar: boolean;
  /** Include profile_data (non-bots only). */
  includeProfileData: boolean;
  profileData?: Map<number, Record<string, { value: string; rendered_value?: string }>>;
}

/** Whether `viewer` may see `target`'s real address, per the target's email_address_visibility. */
export function canSeeDeliveryEmail(viewer: Pick<User, 'id' | 'role'> | null, target: User): boolean {
  if (target.is_bot) return true;
  if (viewer === null) return target.email_address_visibility === EmailVisibility.EVERYONE;
  if (viewer.id === target.id) return true;
  switch (target.email_address_visibility) {
    case EmailVisibility.EVERYONE:
      return true;
    case EmailVisibility.MEMBERS:
      return !isGuestRole(viewer.role);
    case EmailVisibility.ADMINS:
      return isAdminRole(viewer.role);
    case EmailVisibility.MODERATORS:
      return isModeratorOrAbove(viewer.role);
    default:
      return false;
  }
}

/** The stand-in address shown when the real one is hidden; it also works as a login name. */
export function placeholderEmail(config: Config, userId: number): string {
  return `user${userId}@${placeholderDomain(config)}`;
}

export function placeholderDomain(config: Config): string {
  const host = new URL(config.externalUrl).hostname;
  // An IP address or a bare host name would not make a valid address.
  return /^[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$/i.test(host) ? host : 'parley.invalid';
}

// Every user dictionary carries one (10,000 of them in a register of a large organization), so
// each address's digest is computed once; the oldest are dropped past the bound.
const gravatarDigests = new Map<string, string>();
const GRAVATAR_DIGESTS_KEPT = 200_000;

export function gravatarUrl(email: string, version: number): string {
  let digest = gravatarDigests.get(email);
  if (digest === undefined) {
    digest = crypto.createHash('md5').update(email.trim().toLowerCase()).digest('hex');
    if (gravatarDigests.size >= GRAVATAR_DIGESTS_KEPT) gravatarDigests.delete(gravatarDigests.keys().next().value!);
    gravatarDigests.set(email, digest);
  }
  return `https://secure.gravatar.com/avatar/${digest}?d=identicon&version=${version}`;
}

/** The medium-size variant of an avatar URL (gravatar takes a size parameter). */
export function mediumAvatarUrl(url: string): string {
  if (url.includes('gravatar.com/')) return url.replace('&version=', '&s=500&version=');
  return url.replace(/^(\/user_avatars\/\d+)\?/, '$1/medium?');
}

// Every user dictionary carries a join date (GET /users/me on each request, 10,000 of them in a
// register of a large organization): each instant's text is made once, within a bound.
const isoTexts = new Map<number, string>();
const ISO_TEXTS_KEPT = 100_000;

/** ISO 8601 in the form Zulip prints (microseconds, explicit UTC offset). */
export function isoTimestamp(date: Date): string {
  const ms = date.getTime();
  let text = isoTexts.get(ms);
  if (text === undefined) {
    // toISOString always ends in ".mmmZ".
    text = `${date.toISOString().slice(0, -1)}000+00:00`;
    if (isoTexts.size >= ISO_TEXTS_KEPT) isoTexts.clear();
    isoTexts.set(ms, text);
  }
  return text;
}

export function userDict(config: Config, viewer: Pick<User, 'id' | 'role'> | null, target: User, options: ViewOptions): UserDict {
  const visible = canSeeDeliveryEmail(viewer, target);
  const dict: UserDict = {
    user_id: target.id,
    email: visible ? target.delivery_email : placeholderEmail(config, target.id),
    delivery_email: visible ? target.delivery_email : null,
    full_name: target.full_name,
    date_joined: isoTimestamp(target.date_joined),
    is_active: target.is_active,
    is_owner: isOwnerRole(target.role),
    is_admin: isAdminRole(target.role),
    is_guest: isGuestRole(target.role),
    is_bot: target.is_bot,
    bot_type: target.is_bot ? target.bot_type : null,
    bot_owner_id: target.is_bot ? target.bot_owner_id : null,
    role: target.role,
    timezone: target.timezone,
    avatar_url: avatarUrlFor(target, visible, options.clientGravatar),
    avatar_version: target.avatar_version,
    is_imported_stub: false,
  };
  if (options.includeProfileData && !target.is_bot) {
    // A copy: the map may be a cache's, and register applies events to what it returns.
    dict.profile_data = { ...options.profileData?.get(target.id) };
  }
  return dict;
}

function avatarUrlFor(target: User, emailVisible: boolean, clientGravatar: boolean): string | null {
  // With client_gravatar the client computes gravatar URLs itself, which it can do only from an
  // address it can see.
  if (target.avatar_source === 'G') {
    return clientGravatar && emailVisible ? null : gravatarUrl(target.delivery_email, target.avatar_version);
  }
  return `/user_avatars/${target.id}?version=${target.avatar_version}`;
}

/** GET /users/me: the own-user resource (the real address is always visible to its owner). */
export function ownUserDict(config: Config, me: User, maxMessageId: number, profileData: UserDict['profile_data']) {
  const base = userDict(config, me, me, { clientGravatar: false, includeProfileData: false });
  const own: Record<string, unknown> = {
    user_id: base.user_id,
    email: me.delivery_email,
    delivery_email: me.delivery_email,
    full_name: base.full_name,
    avatar_url: base.avatar_url,
    avatar_version: base.avatar_version,
    is_admin: base.is_admin,
    is_owner: base.is_owner,
    is_guest: base.is_guest,
    is_bot: base.is_bot,
    is_active: base.is_active,
    role: base.role,
    timezone: base.timezone,
    date_joined: base.date_joined,
    is_imported_stub: base.is_imported_stub,
    max_message_id: maxMessageId,
  };
  if (!me.is_bot) own.profile_data = profileData ?? {};
  return own;
}
