import type { AppDeps } from '../deps';
import { inTransaction } from '../../db/unit-of-work';
import { errors } from '../../errors';
import { sendInternalMessage } from '../messages/send';
import { MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH } from '../invites/actions';
import { requireRealmAdmin } from '../realm/actions';
import { Realm } from '../realm/model';
import type { User } from '../users/model';
import { welcomeBot } from './notification-bot';

/** The Welcome Bot's message carrying an organization's custom welcome text. */
function customWelcomeMessage(realmName: string, text: string): string {
  return `A message from the administrators of ${realmName}:\n\n${text}`;
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
    const realm = await Realm.query(uow.trx).findById(deps.realmId);
    const content = customWelcomeMessage(realm?.name ?? deps.config.realmName, text);
    return sendInternalMessage(deps, uow, await welcomeBot(uow.trx), { users: [actor] }, content);
  });
}
