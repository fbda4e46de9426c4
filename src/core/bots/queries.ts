import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { anyOf } from '../../db/lists';
import { User } from '../users/model';
import { isAdminRole } from '../users/roles';
import { BotService } from './model';
import { botAvatarUrl, botDict, BotDict, channelName, ChannelNames } from './view';

/** Bots of the organization, in id order: all of them, or those one user owns. */
async function loadBots(db: Knex, realmId: number, ownerId: number | null, activeOnly: boolean): Promise<User[]> {
  const query = User.query(db).where({ realm_id: realmId, is_bot: true, is_system_bot: false }).orderBy('id');
  if (ownerId !== null) query.where('bot_owner_id', ownerId);
  if (activeOnly) query.where('is_active', true);
  return query;
}

export async function channelNamesFor(db: Knex, bots: User[]): Promise<ChannelNames> {
  const ids = [...new Set(bots.flatMap((b) => [b.default_sending_stream_id, b.default_events_register_stream_id]).filter((id): id is number => id !== null))];
  if (ids.length === 0) return new Map();
  const rows: { id: number; name: string }[] = await db('streams')
    .whereRaw(...anyOf('id', ids))
    .select('id', 'name');
  return new Map(rows.map((r) => [r.id, r.name]));
}

export async function servicesOf(db: Knex, botIds: number[]): Promise<Map<number, BotService>> {
  if (botIds.length === 0) return new Map();
  const rows = await BotService.query(db).whereRaw(...anyOf('bot_id', botIds));
  return new Map(rows.map((r) => [r.bot_id, r]));
}

export async function botDicts(deps: AppDeps, db: Knex, bots: User[]): Promise<BotDict[]> {
  const [channels, services] = await Promise.all([
    channelNamesFor(db, bots),
    servicesOf(
      db,
      bots.map((b) => b.id),
    ),
  ]);
  return bots.map((bot) => botDict(deps.config, bot, services.get(bot.id), channels));
}

/** Human administrators administer every bot (bots with an administrator's role do not). */
export const administersAllBots = (user: Pick<User, 'role' | 'is_bot'>) => isAdminRole(user.role) && !user.is_bot;

/** register's realm_bots: every bot for administrators, the bots one owns for others (deactivated ones included). */
export async function realmBotsFor(deps: AppDeps, viewer: User): Promise<BotDict[]> {
  const bots = await loadBots(deps.knex, deps.realmId, administersAllBots(viewer) ? null : viewer.id, false);
  return botDicts(deps, deps.knex, bots);
}

/** GET /bots: the caller's active bots, as Zulip lists them (without the key, which is stored hashed). */
export async function listOwnBots(deps: AppDeps, owner: User) {
  const bots = await loadBots(deps.knex, deps.realmId, owner.id, true);
  const channels = await channelNamesFor(deps.knex, bots);
  return bots.map((bot) => ({
    username: bot.delivery_email,
    user_id: bot.id,
    full_name: bot.full_name,
    avatar_url: botAvatarUrl(deps.config, bot),
    default_sending_stream: channelName(channels, bot.default_sending_stream_id),
    default_events_register_stream: channelName(channels, bot.default_events_register_stream_id),
    default_all_public_streams: bot.default_all_public_streams,
  }));
}

/** One bot as realm_bots shows it (GraphQL answers with it after each change). */
export async function botDictById(deps: AppDeps, botId: number): Promise<BotDict> {
  const bot = await User.query(deps.knex).findOne({ realm_id: deps.realmId, id: botId, is_bot: true });
  if (!bot) throw new Error(`bot ${botId} not found`);
  return (await botDicts(deps, deps.knex, [bot]))[0];
}
