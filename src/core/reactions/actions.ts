import type { AppDeps } from '../deps';
import { isUniqueViolation } from '../../db/connect';
import { inTransaction } from '../../db/unit-of-work';
import { ApiError, errors } from '../../errors';
import { loadViewer } from '../channels/access';
import { activeRealmEmojiByName, findRealmEmoji } from '../emoji/queries';
import { checkEmojiRequest, resolveEmojiName } from '../emoji/validation';
import { accessMessage, eventRecipientsForMessages } from '../messages/access';
import { HISTORICAL_FLAGS } from '../messages/flags';
import type { User } from '../users/model';
import { reactionEvent } from './events';

/**
 * Emoji reactions. A reaction is identified by (message, user, emoji code, reaction type); the
 * name is presentation. Reacting with the same code as an existing reaction counts as a vote for
 * it and takes its name, as in Zulip. Reacting to a public-channel message one never received
 * adds it to one's history.
 */
export const reactionAlreadyExists = () => new ApiError('REACTION_ALREADY_EXISTS', 'Reaction already exists.');
export const reactionDoesNotExist = () => new ApiError('REACTION_DOES_NOT_EXIST', "Reaction doesn't exist.");

/** The spec's name for the built-in extra emoji namespace is stored under Zulip's. */
const normalizeType = (type: string) => (type === 'service_extra_emoji' ? 'zulip_extra_emoji' : type);

async function resolveByName(deps: AppDeps, db: Parameters<typeof activeRealmEmojiByName>[0], emojiName: string) {
  const realm = await activeRealmEmojiByName(db, deps.realmId, [emojiName]);
  return resolveEmojiName(emojiName, (name) => realm.get(name));
}

export interface ReactionRequest {
  emojiName: string;
  emojiCode?: string;
  reactionType?: string;
}

export async function addReaction(deps: AppDeps, user: User, messageId: number, request: ReactionRequest): Promise<void> {
  await inTransaction(deps, deps.realmId, async (uow) => {
    const db = uow.trx;
    const viewer = await loadViewer(db, user);
    const { message, flags, stream } = await accessMessage(db, viewer, messageId, { modifying: true, lock: true });
    let emojiCode = request.emojiCode;
    let reactionType = request.reactionType === undefined ? undefined : normalizeType(request.reactionType);
    if (emojiCode === undefined || reactionType === undefined) {
      const resolved = await resolveByName(deps, db, request.emojiName);
      emojiCode ??= resolved.emojiCode;
      reactionType ??= resolved.reactionType;
    }
    const mine = await db('reactions').where({ message_id: message.id, user_id: user.id, emoji_code: emojiCode, reaction_type: reactionType }).first('id');
    if (mine) throw reactionAlreadyExists();
    let emojiName = request.emojiName;
    const existing = await db('reactions')
      .where({ message_id: message.id, emoji_code: emojiCode, reaction_type: reactionType })
      .orderBy('id')
      .first('emoji_name');
    if (existing) {
      emojiName = existing.emoji_name;
    } else {
      const customId = reactionType === 'realm_emoji' && /^[0-9]+$/.test(emojiCode) ? Number(emojiCode) : null;
      const custom = customId === null ? undefined : await findRealmEmoji(db, deps.realmId, customId);
      checkEmojiRequest(emojiName, emojiCode, reactionType, (id) => (custom && custom.id === id ? custom : undefined));
    }
    if (flags === null) {
      await db('user_messages')
        .insert({ user_id: user.id, message_id: message.id, realm_id: deps.realmId, flags: HISTORICAL_FLAGS })
        .onConflict(['user_id', 'message_id'])
        .ignore();
    }
    try {
      await db('reactions').insert({
        realm_id: deps.realmId,
        message_id: message.id,
        user_id: user.id,
        emoji_name: emojiName,
        emoji_code: emojiCode,
        reaction_type: reactionType,
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw reactionAlreadyExists();
      throw error;
    }
    const recipients = await eventRecipientsForMessages(db, [message.id], stream);
    uow.emit(reactionEvent('add', user.id, message.id, { emojiName, emojiCode, reactionType }), recipients);
  });
}

export interface RemoveReactionRequest {
  emojiName?: string;
  emojiCode?: string;
  reactionType: string;
}

export async function removeReaction(deps: AppDeps, user: User, messageId: number, request: RemoveReactionRequest): Promise<void> {
  await inTransaction(deps, deps.realmId, async (uow) => {
    const db = uow.trx;
    const viewer = await loadViewer(db, user);
    const { message, stream } = await accessMessage(db, viewer, messageId, { modifying: true, lock: true });
    let emojiCode = request.emojiCode;
    if (emojiCode === undefined) {
      if (request.emojiName === undefined) {
        throw errors.badRequest('At least one of the following arguments must be present: emoji_name, emoji_code');
      }
      emojiCode = (await resolveByName(deps, db, request.emojiName)).emojiCode;
    }
    const reactionType = normalizeType(request.reactionType);
    const found = await db('reactions')
      .where({ message_id: message.id, user_id: user.id, emoji_code: emojiCode, reaction_type: reactionType })
      .first('id', 'emoji_name');
    if (!found) throw reactionDoesNotExist();
    await db('reactions').where({ id: found.id }).delete();
    const recipients = await eventRecipientsForMessages(db, [message.id], stream);
    uow.emit(reactionEvent('remove', user.id, message.id, { emojiName: found.emoji_name, emojiCode, reactionType }), recipients);
  });
}
