import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { anyOf } from '../../db/lists';
import { User } from '../users/model';
import { isAdminRole } from '../users/roles';
import { BotService } from './model';
import { botAvatarUrl, botDetails, BotDetails, botDict, BotDict, channelName, ChannelNames } from './view';

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

/** realm_bots' form of each bot (see BotDict). */
export async function botDicts(db: Knex, bots: User[]): Promise<BotDict[]> {
  const { channels, services } = await botLookups(db, bots);
  return bots.map((bot) => botDict(bot, services.get(bot.id), channels));
}

async function botLookups(db: Knex, bots: User[]) {
  const [channels, services] = await Promise.all([
    channelNamesFor(db, bots),
    servicesOf(
      db,
      bots.map((b) => b.id),
    ),
  ]);
  return { channels, services };
}

async function botDetailsList(deps: AppDeps, bots: User[]): Promise<BotDetails[]> {
  const { channels, services } = await botLookups(deps.knex, bots);
  return bots.map((bot) => botDetails(deps.config, bot, services.get(bot.id), channels));
}

/** Human administrators administer every bot (bots with an administrator's role do not). */
export const administersAllBots = (user: Pick<User, 'role' | 'is_bot'>) => isAdminRole(user.role) && !user.is_bot;

/** The bots one administers: every bot for administrators, the bots one owns for others (deactivated ones included). */
async function administeredBots(deps: AppDeps, viewer: User): Promise<User[]> {
  return loadBots(deps.knex, deps.realmId, administersAllBots(viewer) ? null : viewer.id, false);
}

/** register's realm_bots. */
export async function realmBotsFor(deps: AppDeps, viewer: User): Promise<BotDict[]> {
  return botDicts(deps.knex, await administeredBots(deps, viewer));
}

/** The same bots with their accounts' fields (GraphQL's bots). */
export async function botDetailsFor(deps: AppDeps, viewer: User): Promise<BotDetails[]> {
  return botDetailsList(deps, await administeredBots(deps, viewer));
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

/** One bot with its account's fields (GraphQL answers with it after each change). */
export async function botDetailsById(deps: AppDeps, botId: number): Promise<BotDetails> {
  const bot = await User.query(deps.knex).findOne({ realm_id: deps.realmId, id: botId, is_bot: true });
  if (!bot) throw new Error(`bot ${botId} not found`);
  return (await botDetailsList(deps, [bot]))[0];
}
