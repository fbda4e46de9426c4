import type { Knex } from 'knex';
import type { Config } from '../../config';
import { User } from '../users/model';
import { Role } from '../users/roles';
import { userDict, UserDict } from '../users/view';

/**
 * Bots the server runs itself. Like Zulip's cross-realm bots they belong to an internal
 * organization of their own, so nothing that lists the organization's members (user lists, groups,
 * counts) ever includes them; clients learn of them from `cross_realm_bots` in POST /register.
 * The notification bot writes the server's own messages: a referrer's "your invitation was
 * accepted", and notices about moved or resolved topics. The welcome bot greets people who join
 * (welcome-bot.ts) and sends administrators their test of the organization's custom welcome message.
 */
export const SYSTEM_REALM_STRING_ID = 'zulipinternal';
export const NOTIFICATION_BOT_EMAIL = 'notification-bot@zulip.com';
export const NOTIFICATION_BOT_NAME = 'Notification Bot';
export const WELCOME_BOT_EMAIL = 'welcome-bot@zulip.com';
const SYSTEM_BOTS = [
  { email: NOTIFICATION_BOT_EMAIL, name: NOTIFICATION_BOT_NAME },
  { email: WELCOME_BOT_EMAIL, name: 'Welcome Bot' },
];
/** Zulip's bot type of a generic bot. */
const DEFAULT_BOT_TYPE = 1;

/** Creates the internal organization and its bots if they do not exist yet. Idempotent. */
export async function ensureSystemBots(knex: Knex): Promise<void> {
  await knex.transaction(async (trx) => {
    await trx('realms').insert({ string_id: SYSTEM_REALM_STRING_ID, name: 'System bots', description: '' }).onConflict('string_id').ignore();
    const realm: { id: number } = await trx('realms').where('string_id', SYSTEM_REALM_STRING_ID).first('id');
    for (const bot of SYSTEM_BOTS) {
      const existing = await trx('users').where({ realm_id: realm.id, is_system_bot: true }).whereRaw('lower(delivery_email) = ?', [bot.email]).first('id');
      if (existing) continue;
      await trx('users').insert({
        realm_id: realm.id,
        delivery_email: bot.email,
        full_name: bot.name,
        role: Role.MEMBER,
        is_bot: true,
        bot_type: DEFAULT_BOT_TYPE,
        is_system_bot: true,
        password_hash: null,
        avatar_source: 'U',
      });
    }
  });
}

async function systemBot(db: Knex, email: string): Promise<User> {
  const bot = await User.query(db).where({ is_system_bot: true }).whereRaw('lower(delivery_email) = ?', [email]).first();
  if (!bot) throw new Error(`the system bot ${email} is missing: the server creates it at start-up`);
  return bot;
}

/** The notification bot (created at start-up). */
export const notificationBot = (db: Knex): Promise<User> => systemBot(db, NOTIFICATION_BOT_EMAIL);

/** The welcome bot (created at start-up). */
export const welcomeBot = (db: Knex): Promise<User> => systemBot(db, WELCOME_BOT_EMAIL);

/** `cross_realm_bots` of POST /register. */
export async function crossRealmBots(db: Knex, config: Config, viewer: User): Promise<(UserDict & { is_system_bot: boolean })[]> {
  const bots = await User.query(db).where({ is_system_bot: true }).orderBy('id');
  return bots.map((bot) => ({ ...userDict(config, viewer, bot, { clientGravatar: false, includeProfileData: false }), is_system_bot: true }));
}
