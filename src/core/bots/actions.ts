import type { AppDeps } from '../deps';
import { isUniqueViolation } from '../../db/connect';
import { isRowId } from '../../db/ids';
import { inTransaction, UnitOfWork } from '../../db/unit-of-work';
import { errors } from '../../errors';
import { accessChannelByName, loadViewer } from '../channels/access';
import type { Stream } from '../channels/model';
import { forgetAuthAfterCommit } from '../users/auth-cache';
import { activeUserIds } from '../users/access';
import { deactivateAccount, emailInUse, insertAccount, issueBotApiKey, regenerateApiKey, updateUser } from '../users/actions';
import { generateApiKey } from '../users/credentials';
import { ApiKey, User } from '../users/model';
import { isAdminRole, isOwnerRole, Role } from '../users/roles';
import { checkEmail, checkFullName } from '../users/validation';
import { checkUniqueName } from '../users/name-policy';
import { placeholderDomain } from '../users/view';
import { emitAddressSight } from '../settings/email-visibility';
import { accessBotById, botAdministratorIds, checkBotCreationPolicy, checkValidBotType, requireMemberForBots } from './access';
import { BOT_INTERFACES, BotInterface, BotType } from './constants';
import { BotService } from './model';
import { botDicts, channelNamesFor } from './queries';
import { botAvatarUrl, channelName, servicesFor } from './view';

export interface NewBot {
  fullName: string;
  shortName: string;
  botType: number;
  payloadUrl: string;
  serviceName?: string;
  interfaceType: number;
  defaultSendingStream?: string;
  defaultEventsRegisterStream?: string;
  defaultAllPublicStreams?: boolean;
}

const badName = () => errors.badRequest('Bad name or username');
const invalidInterface = () => errors.badRequest('Invalid interface type');

/** Zulip's check_bot_name_available: no two active accounts share a bot's name. */
async function checkNameAvailable(deps: AppDeps, db: UnitOfWork['trx'], fullName: string, exceptId?: number): Promise<void> {
  const query = db('users').where({ realm_id: deps.realmId, is_active: true, full_name: fullName });
  if (exceptId !== undefined) query.whereNot('id', exceptId);
  if (await query.first('id')) throw errors.badRequest('Name is already in use!');
}

async function defaultChannel(deps: AppDeps, actor: User, name: string | undefined): Promise<Stream | null> {
  if (name === undefined || name === '') return null;
  return accessChannelByName(deps.knex, await loadViewer(deps.knex, actor), name);
}

/** A bot's address from its short name: `<short_name>-bot@<domain>`; "Bad name or username" if none can be made. */
function botEmail(deps: AppDeps, rawShortName: string): string {
  const shortName = rawShortName.trim();
  if (shortName === '') throw badName();
  try {
    return checkEmail(`${shortName}-bot@${placeholderDomain(deps.config)}`);
  } catch {
    throw badName();
  }
}

/** The address a new short name gives the bot, if it changes it and no other account has it. */
async function checkNewBotEmail(deps: AppDeps, db: UnitOfWork['trx'], bot: User, shortName: string): Promise<string | null> {
  const email = botEmail(deps, shortName);
  if (email === bot.delivery_email) return null;
  const holder = await User.query(db).where('realm_id', deps.realmId).whereRaw('lower(delivery_email) = lower(?)', [email]).select('id').first();
  if (holder && holder.id !== bot.id) throw errors.badRequest('Username already in use');
  return email;
}

/** POST /bots, checked in Zulip's order so the first problem reported is the same. */
export async function createBot(deps: AppDeps, actor: User, input: NewBot) {
  requireMemberForBots(actor);
  const shortName = input.shortName.trim();
  if (shortName === '') throw badName();
  const serviceName = input.serviceName || shortName;
  const fullName = checkFullName(input.fullName);
  await checkUniqueName(deps.knex, deps.realmId, fullName, null);
  const email = botEmail(deps, shortName);
  if (await emailInUse(deps.knex, deps.realmId, email)) throw errors.badRequest('Username already in use');
  await checkNameAvailable(deps, deps.knex, fullName);
  await checkBotCreationPolicy(deps, actor, input.botType);
  checkValidBotType(input.botType);
  if (!BOT_INTERFACES.includes(input.interfaceType)) throw invalidInterface();
  const sending = await defaultChannel(deps, actor, input.defaultSendingStream);
  const registering = await defaultChannel(deps, actor, input.defaultEventsRegisterStream);
  const apiKey = generateApiKey();
  const bot = await inTransaction(deps, deps.realmId, async (uow) => {
    await checkNameAvailable(deps, uow.trx, fullName);
    const created = await insertAccount(
      deps,
      uow,
      {
        delivery_email: email,
        full_name: fullName,
        role: Role.MEMBER,
        is_bot: true,
        bot_type: input.botType,
        bot_owner_id: actor.id,
        password_hash: null,
        avatar_source: 'G',
        default_sending_stream_id: sending?.id ?? null,
        default_events_register_stream_id: registering?.id ?? null,
        default_all_public_streams: input.defaultAllPublicStreams ?? false,
      },
      apiKey,
      'Username already in use',
    );
    if (input.botType === BotType.OUTGOING_WEBHOOK) {
      await BotService.query(uow.trx).insert({
        realm_id: deps.realmId,
        bot_id: created.id,
        name: serviceName,
        base_url: input.payloadUrl,
        interface: input.interfaceType,
        token: generateApiKey(),
      });
    }
    const [dict] = await botDicts(uow.trx, [created]);
    uow.emit({ type: 'realm_bot', op: 'add', bot: dict }, await botAdministratorIds(uow.trx, deps.realmId, created));
    return created;
  });
  return {
    user_id: bot.id,
    api_key: apiKey,
    avatar_url: botAvatarUrl(deps.config, bot),
    default_sending_stream: sending?.name ?? null,
    default_events_register_stream: registering?.name ?? null,
    default_all_public_streams: bot.default_all_public_streams,
  };
}

export interface BotChanges {
  fullName?: string;
  /** Changes the bot's address to `<shortName>-bot@<domain>` (Zulip 12.0, feature level 447). */
  shortName?: string;
  role?: number;
  botOwnerId?: number;
  servicePayloadUrl?: string;
  serviceInterface: number;
  defaultSendingStream?: string;
  defaultEventsRegisterStream?: string;
  defaultAllPublicStreams?: boolean;
}

/** PATCH /bots/{bot_id}: each change in Zulip's order, each announced as Zulip announces it. */
export async function updateBot(deps: AppDeps, actor: User, botId: number, changes: BotChanges) {
  const target = await accessBotById(deps.knex, deps.realmId, actor, botId);
  if (changes.role !== undefined && changes.role !== target.role) {
    if ((isOwnerRole(changes.role) || isOwnerRole(target.role)) && !isOwnerRole(actor.role)) throw errors.mustBeOwner();
    if (!isAdminRole(actor.role)) throw errors.mustBeAdmin();
  }
  if (changes.servicePayloadUrl !== undefined && !BOT_INTERFACES.includes(changes.serviceInterface)) throw invalidInterface();
  // Checked before the role changes, so that a taken or invalid name changes nothing.
  if (changes.shortName !== undefined) await checkNewBotEmail(deps, deps.knex, target, changes.shortName);
  const sending = changes.defaultSendingStream === undefined ? undefined : await defaultChannel(deps, actor, changes.defaultSendingStream);
  const registering = changes.defaultEventsRegisterStream === undefined ? undefined : await defaultChannel(deps, actor, changes.defaultEventsRegisterStream);
  if (changes.role !== undefined && changes.role !== target.role) await updateUser(deps, actor, target.id, { role: changes.role });
  const bot = await inTransaction(deps, deps.realmId, async (uow) => {
    const bot = await accessBotById(uow.trx, deps.realmId, actor, botId);
    const everyone = await activeUserIds(uow.trx, deps.realmId);
    const tellAdministrators = async (fields: Record<string, unknown>) =>
      uow.emit({ type: 'realm_bot', op: 'update', bot: { user_id: bot.id, ...fields } }, await botAdministratorIds(uow.trx, deps.realmId, bot));
    if (changes.fullName !== undefined) {
      const fullName = checkFullName(changes.fullName);
      await checkUniqueName(uow.trx, deps.realmId, fullName, bot.id);
      if (fullName !== bot.full_name) {
        await checkNameAvailable(deps, uow.trx, fullName, bot.id);
        await User.query(uow.trx).patch({ full_name: fullName }).where({ id: bot.id });
        bot.full_name = fullName;
        uow.emit({ type: 'realm_user', op: 'update', person: { user_id: bot.id, full_name: fullName } }, everyone);
      }
    }
    const email = changes.shortName === undefined ? null : await checkNewBotEmail(deps, uow.trx, bot, changes.shortName);
    if (email !== null) {
      try {
        await User.query(uow.trx).patch({ delivery_email: email }).where({ id: bot.id });
      } catch (error) {
        // Another account took the address since it was checked.
        if (isUniqueViolation(error)) throw errors.badRequest('Username already in use');
        throw error;
      }
      bot.delivery_email = email;
      // A bot's address is visible to everyone; its user object carries it (no realm_bot event).
      emitAddressSight(uow, deps.config, bot, everyone, true);
    }
    if (changes.botOwnerId !== undefined) await changeOwner(deps, uow, bot, changes.botOwnerId, everyone);
    if (sending !== undefined && (sending?.id ?? null) !== bot.default_sending_stream_id) {
      await User.query(uow.trx)
        .patch({ default_sending_stream_id: sending?.id ?? null })
        .where({ id: bot.id });
      bot.default_sending_stream_id = sending?.id ?? null;
      await tellAdministrators({ default_sending_stream: sending?.name ?? null });
    }
    if (registering !== undefined && (registering?.id ?? null) !== bot.default_events_register_stream_id) {
      await User.query(uow.trx)
        .patch({ default_events_register_stream_id: registering?.id ?? null })
        .where({ id: bot.id });
      bot.default_events_register_stream_id = registering?.id ?? null;
      await tellAdministrators({ default_events_register_stream: registering?.name ?? null });
    }
    if (changes.defaultAllPublicStreams !== undefined && changes.defaultAllPublicStreams !== bot.default_all_public_streams) {
      await User.query(uow.trx).patch({ default_all_public_streams: changes.defaultAllPublicStreams }).where({ id: bot.id });
      bot.default_all_public_streams = changes.defaultAllPublicStreams;
      await tellAdministrators({ default_all_public_streams: changes.defaultAllPublicStreams });
    }
    if (changes.servicePayloadUrl !== undefined) {
      const service = await BotService.query(uow.trx).findOne({ bot_id: bot.id });
      if (service) {
        await BotService.query(uow.trx).patch({ base_url: changes.servicePayloadUrl, interface: changes.serviceInterface }).where({ id: service.id });
        Object.assign(service, { base_url: changes.servicePayloadUrl, interface: changes.serviceInterface });
        await tellAdministrators({ services: servicesFor(bot, service) });
      }
    }
    forgetAuthAfterCommit(deps, uow, bot.id);
    return bot;
  });
  const channels = await channelNamesFor(deps.knex, [bot]);
  const owner = bot.bot_owner_id === null ? undefined : await User.query(deps.knex).findById(bot.bot_owner_id);
  return {
    full_name: bot.full_name,
    avatar_url: botAvatarUrl(deps.config, bot),
    service_interface: changes.serviceInterface,
    service_payload_url: changes.servicePayloadUrl ?? null,
    config_data: null,
    default_sending_stream: channelName(channels, bot.default_sending_stream_id),
    default_events_register_stream: channelName(channels, bot.default_events_register_stream_id),
    default_all_public_streams: bot.default_all_public_streams,
    ...(owner ? { bot_owner: owner.delivery_email } : {}),
  };
}

/**
 * Zulip's do_change_bot_owner: a previous owner who is not an administrator loses the bot from
 * their realm_bots (`delete`), a new one who is not gains it (`add`), and everyone learns the new
 * bot_owner_id from the bot's user object (no realm_bot update since feature level 474).
 */
async function changeOwner(deps: AppDeps, uow: UnitOfWork, bot: User, ownerId: number, everyone: number[]): Promise<void> {
  const owner = isRowId(ownerId) ? await User.query(uow.trx).findOne({ realm_id: deps.realmId, id: ownerId }) : undefined;
  if (!owner || owner.is_system_bot) throw errors.badRequest('Failed to change owner, no such user');
  if (!owner.is_active) throw errors.badRequest('Failed to change owner, user is deactivated');
  if (owner.is_bot) throw errors.badRequest("Failed to change owner, bots can't own other bots");
  if (owner.id === bot.bot_owner_id) return;
  const previous = bot.bot_owner_id === null ? undefined : await User.query(uow.trx).findById(bot.bot_owner_id);
  await User.query(uow.trx).patch({ bot_owner_id: owner.id }).where({ id: bot.id });
  bot.bot_owner_id = owner.id;
  if (previous && !isAdminRole(previous.role)) uow.emit({ type: 'realm_bot', op: 'delete', bot: { user_id: bot.id } }, [previous.id]);
  if (!isAdminRole(owner.role)) {
    const [dict] = await botDicts(uow.trx, [bot]);
    uow.emit({ type: 'realm_bot', op: 'add', bot: dict }, [owner.id]);
  }
  uow.emit({ type: 'realm_user', op: 'update', person: { user_id: bot.id, bot_owner_id: owner.id } }, everyone);
}

/** DELETE /bots/{bot_id}: the bot's owner or an administrator deactivates it. */
export async function deactivateBot(deps: AppDeps, actor: User, botId: number): Promise<void> {
  await inTransaction(deps, deps.realmId, async (uow) => {
    const bot = await accessBotById(uow.trx, deps.realmId, actor, botId);
    if (!bot.is_active) throw errors.badRequest('User is deactivated');
    await deactivateAccount(deps, uow, bot);
  });
}

/** POST /bots/{bot_id}/api_key/regenerate: every key of the bot is replaced by one new key. */
export async function regenerateBotApiKey(deps: AppDeps, actor: User, botId: number): Promise<string> {
  requireMemberForBots(actor);
  const bot = await accessBotById(deps.knex, deps.realmId, actor, botId);
  return regenerateApiKey(deps, bot.id);
}

/**
 * GET /bots/{bot_id}/api_key (Zulip 12.0, feature level 463): the bot's newest key, for its owner
 * and administrators. A bot whose keys all predate readable bot keys gets one more key (its
 * earlier ones keep working), so the answer is always a key that works.
 */
export async function getBotApiKey(deps: AppDeps, actor: User, botId: number): Promise<string> {
  requireMemberForBots(actor);
  const bot = await accessBotById(deps.knex, deps.realmId, actor, botId);
  const row = await ApiKey.query(deps.knex).where({ user_id: bot.id }).whereNotNull('bot_key').orderBy('id', 'desc').first();
  return row?.bot_key ?? issueBotApiKey(deps, bot.id);
}

export const DEFAULT_BOT_INTERFACE = BotInterface.GENERIC;
