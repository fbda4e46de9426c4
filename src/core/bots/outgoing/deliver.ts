import type { AppDeps } from '../../deps';
import { describeFailure } from '../../../failure-log';
import { SERVICE_VERSION } from '../../../version';
import { getSingleMessage } from '../../messages/fetch';
import { sendMessage } from '../../messages/send';
import type { SentMessage } from '../../messages/sent-listeners';
import { getRealm } from '../../realm/queries';
import { buildRequest, MessageDict, replyContent, Trigger } from './payload';
import type { OutgoingBot } from './registry';
import { log } from '../../../log';

/**
 * One outgoing-webhook call, run in the background after the triggering message was sent: the
 * message is POSTed to the bot's service, and the `content` of its answer is posted back by the
 * bot where the message was. Like Zulip's worker, a call that fails to connect, times out or gets
 * a 5xx is tried again (three more times), then the bot answers "Failure! Bot is unavailable";
 * any other failure it answers "Failure! <why>" at once. Its owner is told in both cases.
 */
const TIMEOUT_MS = 10_000;
const MAX_RETRIES = 3;
const RETRY_DELAY_MS = 250;

class Retryable extends Error {}
class Failed extends Error {
  constructor(
    message: string,
    readonly ownerNote: string,
  ) {
    super(message);
  }
}

export async function callOutgoingWebhook(deps: AppDeps, sent: SentMessage, target: OutgoingBot, trigger: Trigger): Promise<void> {
  const { raw_content, message } = await getSingleMessage(deps, sent.sender, sent.id, { applyMarkdown: true, allowEmptyTopicName: true });
  const { flags: _flags, content: rendered, ...rest } = message as Record<string, unknown>;
  const dict: MessageDict = { ...rest, type: String(rest.type), content: raw_content, rendered_content: rendered };
  const realm = await getRealm(deps);
  const request = buildRequest(target, dict, trigger, realm, new URL(deps.config.externalUrl).host);
  if (!request) {
    await reply(deps, sent, target, "Failure! Slack outgoing webhooks don't support direct messages.");
    return;
  }
  let lastError = '';
  for (let attempt = 0; attempt <= MAX_RETRIES; attempt++) {
    try {
      const answer = await post(target.service.base_url, request.body, request.contentType);
      const content = replyContent(target, answer);
      if (content !== null) await reply(deps, sent, target, content);
      return;
    } catch (error) {
      if (error instanceof Failed) {
        await reply(deps, sent, target, `Failure! ${error.message}`);
        await notifyOwner(deps, sent, target, error.ownerNote);
        return;
      }
      lastError = error instanceof Retryable ? error.message : 'Connection error';
      if (lastError === CONNECTION_ERROR) {
        lastError = `The message \`${dict.content}\` resulted in a connection error when sending a request to an outgoing webhook! See the server logs for more information.`;
      }
      if (attempt < MAX_RETRIES) await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS * (attempt + 1)));
    }
  }
  // As Zulip's retries end: the conversation hears the bot is unavailable, the owner why.
  await reply(deps, sent, target, 'Failure! Bot is unavailable');
  await notifyOwner(deps, sent, target, `\n${lastError}`);
}

const CONNECTION_ERROR = 'connection error';

async function post(url: string, body: string, contentType: string): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': contentType, 'user-agent': `ZulipOutgoingWebhook/${SERVICE_VERSION}` },
      body,
      signal: AbortSignal.timeout(TIMEOUT_MS),
      redirect: 'manual',
    });
  } catch (error) {
    if ((error as Error).name === 'TimeoutError') throw new Retryable(`Request timed out after ${TIMEOUT_MS / 1000} seconds.`);
    throw new Retryable(CONNECTION_ERROR);
  }
  const text = await response.text();
  if (response.status >= 500) throw new Retryable('Internal server error at third party');
  if (response.status !== 200) {
    throw new Failed(`Third party responded with ${response.status}`, `\nThe webhook got a response with status code *${response.status}*.`);
  }
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    throw new Failed('Invalid JSON in response', '\nThe response was not valid JSON.');
  }
  if (answer !== '' && (typeof answer !== 'object' || answer === null || Array.isArray(answer))) {
    throw new Failed('Invalid response format', '\nThe response was not a JSON object.');
  }
  return answer;
}

/** The bot answers where the message was: in its topic, or to the conversation's participants. */
async function reply(deps: AppDeps, sent: SentMessage, target: OutgoingBot, content: string): Promise<void> {
  const client = 'OutgoingWebhookResponse';
  if (sent.stream) {
    await sendMessage(deps, target.bot, { addressee: { type: 'stream', channel: sent.stream.id }, topic: sent.topic, content, client });
  } else {
    const userIds = sent.participants.map((u) => u.id).filter((id) => id !== target.bot.id);
    await sendMessage(deps, target.bot, { addressee: { type: 'private', userIds, emails: null }, topic: null, content, client });
  }
}

async function notifyOwner(deps: AppDeps, sent: SentMessage, target: OutgoingBot, detail: string): Promise<void> {
  const ownerId = target.bot.bot_owner_id;
  if (ownerId === null) return;
  const url = `${deps.config.externalUrl}/#narrow/near/${sent.id}`;
  const content = `[A message](${url}) to your bot @_**${target.bot.full_name}** triggered an outgoing webhook.${detail}`;
  await sendMessage(deps, target.bot, {
    addressee: { type: 'private', userIds: [ownerId], emails: null },
    topic: null,
    content,
    client: 'OutgoingWebhookResponse',
  });
}

/** Background calls under way, so that whoever must know can wait for them (see backgroundCallsSettled). */
const inFlight = new Set<Promise<void>>();

/** Background calls are never awaited by the sender; their failures are logged without content. */
export function runInBackground(task: Promise<void>): void {
  const tracked: Promise<void> = task
    .catch((error: unknown) => log().error(`outgoing webhook failed: ${describeFailure(error)}`))
    .finally(() => inFlight.delete(tracked));
  inFlight.add(tracked);
}

/** Resolves once every background call started so far (and those they started) has ended. */
export async function backgroundCallsSettled(): Promise<void> {
  while (inFlight.size > 0) await Promise.all([...inFlight]);
}
