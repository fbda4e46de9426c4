import type { AppDeps } from '../../deps';
import type { UnitOfWork } from '../../../db/unit-of-work';
import { SERVICE_VERSION } from '../../../version';
import { getSingleMessage } from '../../messages/fetch';
import { sendMessageWithin } from '../../messages/send';
import { getRealm } from '../../realm/queries';
import { User } from '../../users/model';
import { DeliveryFailure, DeliveryHandler } from '../../deliveries/handler';
import { buildRequest, MessageDict, replyContent, Trigger } from './payload';
import { OutgoingBot, outgoingBotsCache } from './registry';

/**
 * One outgoing-webhook call, an outbox item written with the triggering message: the message is
 * POSTed to the bot's service with the item's key in `X-Parley-Delivery` (the same on every
 * attempt), and the `content` of its answer is posted back by the bot where the message was, in
 * the transaction that marks the item sent. Like Zulip's worker, a call that fails to connect,
 * times out or gets a 5xx is tried again (MAX_REQUEST_RETRIES more times, with backoff), then the
 * bot answers "Failure! Bot is unavailable"; any other failure it answers "Failure! <why>" at
 * once. Its owner is told in both cases.
 */
export interface WebhookPayload {
  message_id: number;
  bot_id: number;
  trigger: Trigger;
}

const TIMEOUT_MS = 10_000;
/** Zulip's MAX_REQUEST_RETRIES: attempts after the first. */
export const MAX_REQUEST_RETRIES = 3;

/** A final failure the service answered: the bot says why, and its owner hears more. */
class ServiceRefused extends DeliveryFailure {
  constructor(
    readonly reply: string,
    readonly ownerNote: string,
    summary: string,
  ) {
    super(summary, false);
  }
}

const CONNECTION_ERROR = 'connection error';

/** What the call is about, read when the item is sent; null when the message or the bot is gone. */
interface CallContext {
  target: OutgoingBot;
  sender: User;
  messageId: number;
  content: string;
  streamId: number | null;
  topic: string;
  /** Direct messages: every participant's id. */
  participantIds: number[];
}

async function loadContext(deps: AppDeps, payload: WebhookPayload): Promise<CallContext | null> {
  const target = (await outgoingBotsCache(deps).get()).get(payload.bot_id);
  const row = await deps
    .knex('messages')
    .where({ id: payload.message_id, realm_id: deps.realmId })
    .first('sender_id', 'stream_id', 'topic', 'dm_key', 'content');
  if (!target || !row) return null;
  const sender = await User.query(deps.knex).findById(row.sender_id);
  if (!sender) return null;
  const participantIds = row.dm_key ? String(row.dm_key).split(',').map(Number) : [];
  return { target, sender, messageId: payload.message_id, content: row.content, streamId: row.stream_id, topic: row.topic, participantIds };
}

export const webhookHandler: DeliveryHandler = {
  maxAttempts: 1 + MAX_REQUEST_RETRIES,
  async send(deps, item) {
    const context = await loadContext(deps, item.payload as unknown as WebhookPayload);
    if (!context) return null;
    const { target, sender } = context;
    const { raw_content, message } = await getSingleMessage(deps, sender, context.messageId, { applyMarkdown: true, allowEmptyTopicName: true });
    const { flags: _flags, content: rendered, ...rest } = message as Record<string, unknown>;
    const dict: MessageDict = { ...rest, type: String(rest.type), content: raw_content, rendered_content: rendered };
    const realm = await getRealm(deps);
    const request = buildRequest(target, dict, (item.payload as unknown as WebhookPayload).trigger, realm, new URL(deps.config.externalUrl).host);
    if (!request) return (uow) => reply(deps, uow, context, "Failure! Slack outgoing webhooks don't support direct messages.");
    const answer = await post(target.service.base_url, request.body, request.contentType, item.key);
    const content = replyContent(target, answer);
    return content === null ? null : (uow) => reply(deps, uow, context, content);
  },
  async onDead(deps, item, failure) {
    const context = await loadContext(deps, item.payload as unknown as WebhookPayload);
    if (!context) return null;
    if (failure instanceof ServiceRefused) {
      return async (uow) => {
        await reply(deps, uow, context, `Failure! ${failure.reply}`);
        await notifyOwner(deps, uow, context, failure.ownerNote);
      };
    }
    // As Zulip's retries end: the conversation hears the bot is unavailable, the owner why.
    let detail = failure.summary;
    if (detail === CONNECTION_ERROR) {
      detail = `The message \`${context.content}\` resulted in a connection error when sending a request to an outgoing webhook! See the server logs for more information.`;
    }
    return async (uow) => {
      await reply(deps, uow, context, 'Failure! Bot is unavailable');
      await notifyOwner(deps, uow, context, `\n${detail}`);
    };
  },
};

async function post(url: string, body: string, contentType: string, key: string): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': contentType, 'user-agent': `ZulipOutgoingWebhook/${SERVICE_VERSION}`, 'x-parley-delivery': key },
      body,
      signal: AbortSignal.timeout(TIMEOUT_MS),
      redirect: 'manual',
    });
  } catch (error) {
    if ((error as Error).name === 'TimeoutError') throw new DeliveryFailure(`Request timed out after ${TIMEOUT_MS / 1000} seconds.`, true);
    throw new DeliveryFailure(CONNECTION_ERROR, true);
  }
  const text = await response.text().catch(() => '');
  if (response.status >= 500) throw new DeliveryFailure('Internal server error at third party', true);
  if (response.status !== 200) {
    throw new ServiceRefused(
      `Third party responded with ${response.status}`,
      `\nThe webhook got a response with status code *${response.status}*.`,
      `status ${response.status}`,
    );
  }
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    throw new ServiceRefused('Invalid JSON in response', '\nThe response was not valid JSON.', 'invalid JSON');
  }
  if (answer !== '' && (typeof answer !== 'object' || answer === null || Array.isArray(answer))) {
    throw new ServiceRefused('Invalid response format', '\nThe response was not a JSON object.', 'not a JSON object');
  }
  return answer;
}

/** The bot answers where the message was: in its topic, or to the conversation's participants. */
async function reply(deps: AppDeps, uow: UnitOfWork, context: CallContext, content: string): Promise<void> {
  const client = 'OutgoingWebhookResponse';
  const bot = context.target.bot;
  if (context.streamId !== null) {
    await sendMessageWithin(deps, uow, bot, { addressee: { type: 'stream', channel: context.streamId }, topic: context.topic, content, client });
  } else {
    const userIds = context.participantIds.filter((id) => id !== bot.id);
    await sendMessageWithin(deps, uow, bot, { addressee: { type: 'private', userIds, emails: null }, topic: null, content, client });
  }
}

async function notifyOwner(deps: AppDeps, uow: UnitOfWork, context: CallContext, detail: string): Promise<void> {
  const { bot } = context.target;
  if (bot.bot_owner_id === null) return;
  const url = `${deps.config.externalUrl}/#narrow/near/${context.messageId}`;
  const content = `[A message](${url}) to your bot @_**${bot.full_name}** triggered an outgoing webhook.${detail}`;
  await sendMessageWithin(deps, uow, bot, {
    addressee: { type: 'private', userIds: [bot.bot_owner_id], emails: null },
    topic: null,
    content,
    client: 'OutgoingWebhookResponse',
  });
}
