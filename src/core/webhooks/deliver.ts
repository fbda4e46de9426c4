import type { AppDeps } from '../deps';
import { ApiError, errors } from '../../errors';
import { sendMessage } from '../messages/send';
import type { User } from '../users/model';
import type { Integration, WebhookMessage } from './types';

/**
 * Zulip's check_send_webhook_message: a message goes to the channel the URL names (`stream`, by
 * name or id; `topic` replaces the integration's topic) or, without one, to the bot's owner as a
 * direct message. A channel that does not exist drops it. `only_events` / `exclude_events` (JSON
 * lists of shell-style patterns) filter the events reported.
 */
export interface DeliveryParams {
  stream?: string;
  topic?: string;
  only_events?: string;
  exclude_events?: string;
}

function patterns(raw: string | undefined, name: string): RegExp[] | null {
  if (raw === undefined) return null;
  let list: unknown;
  try {
    list = JSON.parse(raw);
  } catch {
    throw errors.invalidJson(name);
  }
  if (!Array.isArray(list) || !list.every((p) => typeof p === 'string')) throw errors.badRequest(`${name} is not a list`);
  return (list as string[]).map(fnmatchRegExp);
}

/** Python's fnmatch: *, ? and [...] classes, whole string. */
function fnmatchRegExp(pattern: string): RegExp {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*') out += '.*';
    else if (c === '?') out += '.';
    else if (c === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end < 0) out += '\\[';
      else {
        let body = pattern.slice(i + 1, end).replace(/\\/g, '\\\\');
        if (body.startsWith('!')) body = `^${body.slice(1)}`;
        out += `[${body}]`;
        i = end;
      }
    } else out += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^(?:${out})$`, 's');
}

export async function deliverWebhookMessages(
  deps: AppDeps,
  bot: User,
  integration: Integration,
  messages: WebhookMessage[],
  params: DeliveryParams,
): Promise<void> {
  const only = patterns(params.only_events, 'only_events');
  const exclude = patterns(params.exclude_events, 'exclude_events');
  const client = `Zulip${integration.displayName}Webhook`;
  for (const message of messages) {
    const type = message.eventType;
    if (type !== undefined) {
      if (only && !only.some((re) => re.test(type))) continue;
      if (exclude && exclude.some((re) => re.test(type))) continue;
    }
    if (params.stream === undefined) {
      const ownerId = bot.bot_owner_id ?? bot.id;
      await sendMessage(deps, bot, { addressee: { type: 'private', userIds: [ownerId], emails: null }, topic: null, content: message.body, client });
      continue;
    }
    const channel = /^[0-9]+$/.test(params.stream) ? Number(params.stream) : params.stream;
    try {
      await sendMessage(deps, bot, { addressee: { type: 'stream', channel }, topic: params.topic ?? message.topic, content: message.body, client });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'STREAM_DOES_NOT_EXIST') continue;
      throw error;
    }
  }
}
