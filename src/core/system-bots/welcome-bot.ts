import type { AppDeps } from '../deps';
import { inTransaction, UnitOfWork } from '../../db/unit-of-work';
import { errors } from '../../errors';
import { sendInternalMessage } from '../messages/send';
import { MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH } from '../invites/model';
import { requireRealmAdmin } from '../realm/actions';
import { Realm } from '../realm/model';
import { storedRealmSetting } from '../realm/setting-store';
import type { User } from '../users/model';
import { welcomeBot } from './notification-bot';

/** The Welcome Bot's message carrying an organization's custom welcome text. */
function customWelcomeMessage(realmName: string, text: string): string {
  return `A message from the administrators of ${realmName}:\n\n${text}`;
}

/** The Welcome Bot's greeting of a person who just joined. */
function greeting(realmName: string): string {
  return [
    `Hello, and welcome to ${realmName}! I'm Welcome Bot, and this direct message is just for you.`,
    'Conversations here happen in channels: browse the list of channels to find the ones that matter to you, and subscribe to join them.',
    "If you have a question, ask in a channel or send a direct message to one of the organization's administrators; they are happy to help.",
  ].join('\n\n');
}

async function realmName(deps: AppDeps, uow: UnitOfWork): Promise<string> {
  const realm = await Realm.query(uow.trx).findById(deps.realmId);
  return realm?.name ?? deps.config.realmName;
}

/**
 * The Welcome Bot's direct messages to a person who just joined, inside the transaction that
 * creates the account: the greeting, then the custom welcome text if one applies. An invitation's
 * own text (null: none set) comes first, an empty one meaning no custom message; otherwise the
 * organization's welcome_message_custom_text when not empty. As in Zulip, they start unread and
 * trigger no email or push notification (notifications/decide.ts leaves the Welcome Bot out).
 */
export async function sendWelcomeBotMessages(deps: AppDeps, uow: UnitOfWork, user: User, invitationText: string | null): Promise<void> {
  if (user.is_bot) return;
  const bot = await welcomeBot(uow.trx);
  const name = await realmName(deps, uow);
  await sendInternalMessage(deps, uow, bot, { users: [user] }, greeting(name));
  const text = invitationText ?? (await storedRealmSetting(uow.trx, deps.realmId, 'welcome_message_custom_text', ''));
  if (text.trim() !== '') await sendInternalMessage(deps, uow, bot, { users: [user] }, customWelcomeMessage(name, text));
}

/**
 * POST /realm/test_welcome_bot_custom_message: the Welcome Bot sends the acting administrator the
 * message a new user would get with this custom text, so they can preview it. Answers its id.
 */
export async function sendTestWelcomeBotMessage(deps: AppDeps, actor: User, text: string): Promise<number> {
  requireRealmAdmin(actor);
  if ([...text].length > MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH) {
    throw errors.badRequest(`welcome_message_custom_text is too long (limit: ${MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH} characters)`);
  }
  if (text.length === 0) throw errors.badRequest('Message must not be empty');
  return inTransaction(deps, deps.realmId, async (uow) => {
    const content = customWelcomeMessage(await realmName(deps, uow), text);
    return sendInternalMessage(deps, uow, await welcomeBot(uow.trx), { users: [actor] }, content);
  });
}
