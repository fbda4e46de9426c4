import { errors } from '../errors';
import type { Validator } from '../validation/validate';
import { v } from '../validation/validate';

/**
 * The `narrow` of an event queue: [operator, operand] pairs that every message event must satisfy.
 * Only operators that can be decided from the event itself are allowed.
 */
export type NarrowTerm = [string, string];

const CHANNEL_OPERATORS = ['channel', 'stream'];
const SUPPORTED_OPERATORS = [...CHANNEL_OPERATORS, 'topic', 'exact-topic', 'sender', 'is'];
const UNSUPPORTED_IS_OPERANDS = ['followed'];
const RESOLVED_TOPIC_PREFIX = '✔ ';

export const narrowValidator: Validator<NarrowTerm[]> = (value, name) => {
  const pairs = v.list(v.list(v.string()))(value, name);
  pairs.forEach((pair, i) => {
    if (pair.length !== 2) throw errors.badRequest(`${name}[${i}] should have exactly 2 items`);
  });
  const terms = pairs as NarrowTerm[];
  checkNarrowForEvents(terms);
  return terms;
};

export function checkNarrowForEvents(narrow: NarrowTerm[]): void {
  for (const [operator, operand] of narrow) {
    if (!SUPPORTED_OPERATORS.includes(operator)) throw errors.badRequest(`Operator ${operator} not supported.`);
    if (operator === 'is' && UNSUPPORTED_IS_OPERANDS.includes(operand)) throw errors.badRequest(`Operand ${operand} not supported.`);
  }
}

interface MessageLike {
  type?: string;
  display_recipient?: unknown;
  subject?: string;
  topic?: string;
  sender_email?: string;
}

function topicOf(message: MessageLike): string {
  return message.topic ?? message.subject ?? '';
}

function satisfies(operator: string, operand: string, message: MessageLike, flags: string[]): boolean {
  const isChannelMessage = message.type === 'stream';
  if (CHANNEL_OPERATORS.includes(operator)) {
    return isChannelMessage && typeof message.display_recipient === 'string' && message.display_recipient.toLowerCase() === operand.toLowerCase();
  }
  switch (operator) {
    case 'topic': {
      if (!isChannelMessage) return false;
      // A word of the topic matches too, as Zulip's event narrows do.
      const topic = topicOf(message).toLowerCase();
      const wanted = operand.toLowerCase();
      return topic === wanted || topic.split(/\s+/).includes(wanted);
    }
    case 'exact-topic':
      return isChannelMessage && topicOf(message) === operand;
    case 'sender':
      return (message.sender_email ?? '').toLowerCase() === operand.toLowerCase();
    case 'is':
      switch (operand) {
        case 'dm':
        case 'private':
          return message.type === 'private';
        case 'starred':
          return flags.includes('starred');
        case 'unread':
          return !flags.includes('read');
        case 'alerted':
        case 'mentioned':
          return flags.includes('mentioned');
        case 'resolved':
          return isChannelMessage && topicOf(message).startsWith(RESOLVED_TOPIC_PREFIX);
        default:
          return true;
      }
    default:
      return true;
  }
}

/** Whether a message event passes every term of the narrow. */
export function matchesNarrow(narrow: NarrowTerm[], message: unknown, flags: unknown): boolean {
  if (narrow.length === 0) return true;
  const msg = (message ?? {}) as MessageLike;
  const flagList = Array.isArray(flags) ? (flags as string[]) : [];
  return narrow.every(([operator, operand]) => satisfies(operator, operand, msg, flagList));
}
