import { errors } from '../../errors';
import { EMPTY_TOPIC_DISPLAY_NAME } from '../../realtime/transforms';
import { truncateContent } from '../markdown';

/** Limits and names clients read from POST /register (max_topic_length, realm_empty_topic_display_name). */
export const MAX_TOPIC_LENGTH = 60;
export { EMPTY_TOPIC_DISPLAY_NAME };
/** The name older clients use for the empty topic. */
export const LEGACY_EMPTY_TOPIC_NAME = '(no topic)';
export const RESOLVED_TOPIC_PREFIX = '✔ ';
const TOPIC_TRUNCATION_MARKER = '...';

/** Control, surrogate and unassigned code points may not appear in a topic. */
const UNPRINTABLE = /[\p{Cc}\p{Cs}\p{Cn}]/u;

export function checkTopicPrintable(topic: string): void {
  const chars = [...topic];
  const position = chars.findIndex((c) => UNPRINTABLE.test(c));
  if (position >= 0) throw errors.badRequest(`Invalid character in topic, at position ${position + 1}!`);
}

export function truncateTopic(topic: string): string {
  return truncateContent(topic, MAX_TOPIC_LENGTH, TOPIC_TRUNCATION_MARKER);
}

/** The names clients may use for the empty topic ("general chat" is displayed, "(no topic)" is legacy). */
export function isEmptyTopicAlias(topic: string): boolean {
  return topic === '' || topic === LEGACY_EMPTY_TOPIC_NAME || topic === EMPTY_TOPIC_DISPLAY_NAME;
}

/** A topic as a client sent it: trimmed, the empty topic's aliases mapped to "". */
export function canonicalTopic(raw: string): string {
  const topic = raw.trim();
  return isEmptyTopicAlias(topic) ? '' : topic;
}

/** A topic to store: canonical, printable, cut to the length limit. */
export function topicForStorage(raw: string): string {
  const topic = canonicalTopic(raw);
  checkTopicPrintable(topic);
  return truncateTopic(topic);
}

/** How a stored topic is shown: the empty topic under its display name unless the client handles "". */
export function displayTopic(topic: string, allowEmptyTopicName: boolean): string {
  return topic === '' && !allowEmptyTopicName ? EMPTY_TOPIC_DISPLAY_NAME : topic;
}

export function isResolvedTopic(topic: string): boolean {
  return topic.startsWith(RESOLVED_TOPIC_PREFIX);
}

/** The topic without its leading resolved markers and spaces ("✔ ✔ x" → "x"). */
export function unresolvedName(topic: string): string {
  return topic.replace(/^[✔ ]+/u, '');
}
