import { ApiError, errors } from '../../errors';
import { isValidUnicodeEmojiCode, emojiCodeForName } from './data';
import { EXTRA_EMOJI, EXTRA_EMOJI_REACTION_TYPES } from './extra';

/**
 * Checks on emoji named by clients (reactions, statuses): each reaction type has its own code
 * namespace, and the name must agree with the code. Messages are Zulip's.
 */
export type ReactionType = 'unicode_emoji' | 'realm_emoji' | (typeof EXTRA_EMOJI_REACTION_TYPES)[number];

export interface RealmEmojiRef {
  id: number;
  name: string;
  deactivated: boolean;
}

export function checkEmojiRequest(emojiName: string, emojiCode: string, reactionType: string, realmEmojiById: (id: number) => RealmEmojiRef | undefined): void {
  if (reactionType === 'realm_emoji') {
    const emoji = /^[0-9]+$/.test(emojiCode) ? realmEmojiById(Number(emojiCode)) : undefined;
    if (!emoji) throw errors.badRequest('Invalid custom emoji.');
    if (emoji.name !== emojiName) throw errors.badRequest('Invalid custom emoji name.');
    if (emoji.deactivated) throw errors.badRequest('This custom emoji has been deactivated.');
  } else if ((EXTRA_EMOJI_REACTION_TYPES as readonly string[]).includes(reactionType)) {
    if (!EXTRA_EMOJI.has(emojiCode)) throw errors.badRequest('Invalid emoji code.');
    if (emojiName !== emojiCode) throw errors.badRequest('Invalid emoji name.');
  } else if (reactionType === 'unicode_emoji') {
    if (!isValidUnicodeEmojiCode(emojiCode)) throw errors.badRequest('Invalid emoji code.');
    if (emojiCodeForName(emojiName) !== emojiCode) throw errors.badRequest('Invalid emoji name.');
  } else {
    throw errors.badRequest('Invalid emoji type.');
  }
}

/**
 * What an emoji name alone refers to, as Zulip resolves it: an active custom emoji first, then
 * the built-in extra emoji, then Unicode.
 */
export function resolveEmojiName(
  emojiName: string,
  activeRealmEmojiByName: (name: string) => { id: number } | undefined,
): { emojiCode: string; reactionType: ReactionType } {
  const custom = activeRealmEmojiByName(emojiName);
  if (custom) return { emojiCode: String(custom.id), reactionType: 'realm_emoji' };
  if (EXTRA_EMOJI.has(emojiName)) return { emojiCode: emojiName, reactionType: 'zulip_extra_emoji' };
  const code = emojiCodeForName(emojiName);
  if (code) return { emojiCode: code, reactionType: 'unicode_emoji' };
  throw new ApiError('BAD_REQUEST', `Emoji '${emojiName}' does not exist`, 400);
}

/** Names for custom emoji: lowercase letters, digits, dashes and underscores, not ending in either. */
export function checkValidEmojiName(emojiName: string): void {
  if (!emojiName) throw errors.badRequest('Emoji name is missing');
  if (/^[0-9a-z\-_]+$/.test(emojiName)) {
    if (/[-_]$/.test(emojiName)) throw errors.badRequest('Emoji names must end with either a letter or digit.');
    return;
  }
  throw errors.badRequest('Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.');
}
