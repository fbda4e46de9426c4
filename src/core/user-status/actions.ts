import type { AppDeps } from '../deps';
import { inTransaction } from '../../db/unit-of-work';
import { errors } from '../../errors';
import { activeRealmEmojiByName, findRealmEmoji } from '../emoji/queries';
import { checkEmojiRequest, resolveEmojiName } from '../emoji/validation';
import { requireHuman } from '../presence/actions';
import { applyOwnSettings } from '../settings/actions';
import type { User } from '../users/model';
import { isAdminRole } from '../users/roles';
import { statusAudience } from './away';
import { statusHolder } from './queries';
import { MAX_STATUS_TEXT_LENGTH, UNICODE_EMOJI, USER_STATUS_EVENT } from './store';

/** What a client asks to change; absent parts stay as they are. */
export interface StatusChange {
  away?: boolean;
  statusText?: string;
  emojiName?: string;
  emojiCode?: string;
  reactionType?: string;
}

function checkStatusTextLength(statusText: string | undefined): void {
  if (statusText !== undefined && [...statusText.trim()].length > MAX_STATUS_TEXT_LENGTH) {
    throw errors.badRequest(`status_text is too long (limit: ${MAX_STATUS_TEXT_LENGTH} characters)`);
  }
}

/** Zulip's checks for POST /users/me/status, in its order; returns the change with the emoji resolved. */
async function checkStatusChange(deps: AppDeps, change: StatusChange): Promise<StatusChange> {
  let { statusText, emojiCode, reactionType } = change;
  const { away, emojiName } = change;
  statusText = statusText?.trim();
  checkStatusTextLength(statusText);
  if (away === undefined && statusText === undefined && emojiName === undefined) throw errors.badRequest('Client did not pass any new values.');
  if (emojiName === '') {
    // An empty name clears the emoji.
    emojiCode = '';
    reactionType = UNICODE_EMOJI;
  } else if (emojiName !== undefined) {
    if (emojiCode === undefined || reactionType === undefined) {
      // A name alone is enough: the code and type are those the name refers to now.
      const custom = await activeRealmEmojiByName(deps.knex, deps.realmId, [emojiName]);
      const resolved = resolveEmojiName(emojiName, (name) => custom.get(name));
      emojiCode ??= resolved.emojiCode;
      reactionType ??= resolved.reactionType;
    }
    const customId = reactionType === 'realm_emoji' && /^[0-9]+$/.test(emojiCode) ? Number(emojiCode) : null;
    const custom = customId === null || customId > 2 ** 31 - 1 ? undefined : await findRealmEmoji(deps.knex, deps.realmId, customId);
    checkEmojiRequest(emojiName, emojiCode, reactionType, (id) => (custom && custom.id === id ? custom : undefined));
  } else if (emojiCode || reactionType) {
    throw errors.badRequest('Client must pass emoji_name if they pass either emoji_code or reaction_type.');
  }
  return { away, statusText, emojiName, emojiCode, reactionType };
}

/**
 * POST /users/me/status: changes the parts of the user's status that were given and tells everyone.
 * `away` is the deprecated way of changing the presence_enabled setting (away = !presence_enabled).
 */
export async function updateUserStatus(deps: AppDeps, user: User, requested: StatusChange, client: string): Promise<void> {
  requireHuman(user);
  await setStatus(deps, user, await checkStatusChange(deps, requested), client);
}

/**
 * POST /users/{user_id}/status: an administrator changes another user's status text and emoji (not
 * `away`, which is the user's presence setting). Administrators' bots may too since feature level 473;
 * other bots are refused like other members. The target must be an active human account.
 */
export async function updateStatusForUser(deps: AppDeps, actor: User, userId: number, requested: Omit<StatusChange, 'away'>, client: string): Promise<void> {
  checkStatusTextLength(requested.statusText);
  const target = await statusHolder(deps, userId);
  if (!isAdminRole(actor.role)) throw errors.insufficientPermission();
  await setStatus(deps, target, await checkStatusChange(deps, requested), client);
}

/** Stores the checked change and tells everyone who may see the user. */
async function setStatus(deps: AppDeps, user: User, change: StatusChange, client: string): Promise<void> {
  await inTransaction(deps, deps.realmId, async (uow) => {
    const db = uow.trx;
    if (change.away !== undefined) await applyOwnSettings(deps, uow, user, { presence_enabled: !change.away }, { announceStatus: false });
    const values: Record<string, unknown> = { client: client.slice(0, 30), updated_at: new Date() };
    if (change.statusText !== undefined) values.status_text = change.statusText;
    if (change.emojiName !== undefined) {
      values.emoji_name = change.emojiName;
      values.emoji_code = change.emojiCode;
      values.reaction_type = change.reactionType;
    }
    await db('user_status')
      .insert({ user_id: user.id, realm_id: deps.realmId, ...values })
      .onConflict('user_id')
      .merge(Object.keys(values));
    const event: Record<string, unknown> = { type: USER_STATUS_EVENT, user_id: user.id };
    if (change.away !== undefined) event.away = change.away;
    if (change.statusText !== undefined) event.status_text = change.statusText;
    if (change.emojiName !== undefined) {
      event.emoji_name = change.emojiName;
      event.emoji_code = change.emojiCode;
      event.reaction_type = change.reactionType;
    }
    uow.emit(event as { type: string }, await statusAudience(deps, uow));
  });
}
