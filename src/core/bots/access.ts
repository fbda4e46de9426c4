import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { isRowId } from '../../db/ids';
import { errors } from '../../errors';
import { holdsGroupSetting, recursiveGroupIdsOf } from '../channels/group-settings';
import type { GroupSettingValue } from '../groups/setting-values';
import { currentRealmSettings } from '../realm/values';
import { User } from '../users/model';
import { isAdminRole, isGuestRole } from '../users/roles';
import { BotType, CREATABLE_BOT_TYPES } from './constants';

export const noSuchBot = () => errors.badRequest('No such bot');

/** Administrators manage every bot; other users the bots they own (Zulip's can_admin_user). */
export function canAdministerBot(actor: User, bot: User): boolean {
  return isAdminRole(actor.role) || (bot.bot_owner_id !== null && bot.bot_owner_id === actor.id);
}

/** A bot of the organization, active or not, that the actor may manage (Zulip's access_bot_by_id). */
export async function accessBotById(db: Knex, realmId: number, actor: User, botId: number): Promise<User> {
  const bot = isRowId(botId) ? await User.query(db).findOne({ realm_id: realmId, id: botId }) : undefined;
  if (!bot || !bot.is_bot || bot.is_system_bot) throw noSuchBot();
  if (!canAdministerBot(actor, bot)) throw errors.insufficientPermission();
  return bot;
}

/** Guests never create bots, as Zulip's require_member_or_admin. */
export function requireMemberForBots(actor: User): void {
  if (isGuestRole(actor.role)) throw errors.badRequest('Not allowed for guest users');
}

/**
 * The organization's bot-creation permissions: `can_create_bots_group` may create every type,
 * `can_create_write_only_bots_group` incoming-webhook bots (which can only send messages).
 */
export async function checkBotCreationPolicy(deps: AppDeps, actor: User, botType: number): Promise<void> {
  const { values } = await currentRealmSettings(deps);
  const groups = await recursiveGroupIdsOf(deps.knex, actor.id);
  if (holdsGroupSetting(actor, groups, values.can_create_bots_group as GroupSettingValue)) return;
  if (botType === BotType.INCOMING_WEBHOOK && holdsGroupSetting(actor, groups, values.can_create_write_only_bots_group as GroupSettingValue)) return;
  throw errors.insufficientPermission();
}

export function checkValidBotType(botType: number): void {
  if (!CREATABLE_BOT_TYPES.includes(botType)) throw errors.badRequest('Invalid bot type');
}

/**
 * Who administers a bot and hears of its configuration (`realm_bot` events): its owner and the
 * organization's human administrators, whose realm_bots list every bot. (Zulip leaves the
 * administrators out when a default channel is private, though their realm_bots still list the bot.)
 */
export async function botAdministratorIds(db: Knex, realmId: number, bot: User): Promise<number[]> {
  const admins: { id: number }[] = await db('users').where({ realm_id: realmId, is_active: true, is_bot: false }).where('role', '<=', 200).select('id');
  const ids = new Set(admins.map((a) => a.id));
  if (bot.bot_owner_id !== null) ids.add(bot.bot_owner_id);
  return [...ids];
}
