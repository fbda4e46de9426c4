import type { Knex } from 'knex';
import { toPng } from 'jdenticon';
import { storedRealmSetting } from '../realm/setting-store';

/**
 * Generated profile pictures (avatar source "J"), drawn as Zulip draws them: Jdenticon's pattern for
 * the key `<realm uuid>:<user id>` (clients may compute the same picture from realm_uuid), without
 * padding, lightness 0.3–0.7, 100 px or 500 px ("medium") PNG. Nothing is stored: the picture
 * follows from the key, so it is drawn on request and kept in a small cache.
 */
export const AVATAR_SIZES = { small: 100, medium: 500 } as const;
const STYLE = { padding: 0, lightness: { color: [0.3, 0.7], grayscale: [0.3, 0.7] } };
const CACHE_SIZE = 200;
const cache = new Map<string, Buffer>();

export const jdenticonKey = (realmUuid: string, userId: number) => `${realmUuid}:${userId}`;

export function jdenticonPng(realmUuid: string, userId: number, size: keyof typeof AVATAR_SIZES): Buffer {
  const key = `${jdenticonKey(realmUuid, userId)}/${size}`;
  let png = cache.get(key);
  if (png) {
    // Most recently used last, so the oldest is the first to go.
    cache.delete(key);
  } else {
    png = toPng(jdenticonKey(realmUuid, userId), AVATAR_SIZES[size], STYLE);
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  }
  cache.set(key, png);
  return png;
}

/** The profile picture new accounts start with, and accounts return to when they remove theirs. */
export function defaultAvatarSource(db: Knex, realmId: number): Promise<string> {
  return storedRealmSetting(db, realmId, 'default_avatar_source', 'G');
}
