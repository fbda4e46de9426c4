import type { Realm } from '../../realm/model';
import { BotInterface } from '../constants';
import type { OutgoingBot } from './registry';

/** What a service is sent, in Zulip's native format or as a Slack outgoing webhook. */
export type Trigger = 'mention' | 'direct_message';

export type MessageDict = Record<string, unknown> & { type: string; content: string };

export interface OutgoingRequest {
  body: string;
  contentType: string;
}

/** Zulip's GenericOutgoingWebhookService: JSON with the message, the bot and the service's token. */
function genericRequest(target: OutgoingBot, message: MessageDict, trigger: Trigger): OutgoingRequest {
  const body = {
    data: message.content,
    message,
    bot_email: target.bot.delivery_email,
    bot_full_name: target.bot.full_name,
    token: target.service.token,
    trigger,
  };
  return { body: JSON.stringify(body), contentType: 'application/json' };
}

/** Zulip's SlackOutgoingWebhookService: the form Slack's outgoing webhooks post (channels only). */
function slackRequest(target: OutgoingBot, message: MessageDict, trigger: Trigger, realm: Realm, host: string): OutgoingRequest | null {
  if (message.type !== 'stream') return null;
  const form = new URLSearchParams([
    ['token', target.service.token],
    ['team_id', `T${realm.id}`],
    ['team_domain', host],
    ['channel_id', `C${message.stream_id}`],
    ['channel_name', String(message.display_recipient)],
    ['thread_ts', String(message.timestamp)],
    ['timestamp', String(message.timestamp)],
    ['user_id', `U${message.sender_id}`],
    ['user_name', String(message.sender_full_name)],
    ['text', message.content],
    ['trigger_word', trigger],
    ['service_id', String(target.bot.id)],
  ]);
  return { body: form.toString(), contentType: 'application/x-www-form-urlencoded' };
}

export function buildRequest(target: OutgoingBot, message: MessageDict, trigger: Trigger, realm: Realm, host: string): OutgoingRequest | null {
  return target.service.interface === BotInterface.SLACK ? slackRequest(target, message, trigger, realm, host) : genericRequest(target, message, trigger);
}

/** The reply a service's answer asks for, if any (Zulip's process_success for each interface). */
export function replyContent(target: OutgoingBot, answer: unknown): string | null {
  if (answer === '' || typeof answer !== 'object' || answer === null || Array.isArray(answer)) return null;
  const data = answer as Record<string, unknown>;
  let content: unknown;
  if (target.service.interface === BotInterface.SLACK) content = data.text;
  else if (data.response_not_required === true) return null;
  else content = 'response_string' in data ? data.response_string : data.content;
  if (content === undefined || content === null) return null;
  const text = typeof content === 'string' ? content : JSON.stringify(content);
  return text.trim() === '' ? null : text;
}
