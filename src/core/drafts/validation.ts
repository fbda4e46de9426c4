import { errors } from '../../errors';

/**
 * The shape checks Zulip applies to a draft object, in its order and with its messages. Names
 * follow the request: `drafts[0]["to"][1] is not an integer`.
 */
export const DRAFT_TYPES = ['', 'stream', 'private'] as const;
export type SubmittedDraftType = (typeof DRAFT_TYPES)[number];

export interface SubmittedDraft {
  type: SubmittedDraftType;
  to: number[];
  topic: string;
  content: string;
  /** UNIX seconds, possibly fractional; absent means "now". */
  timestamp: number | null;
}

const FIELDS = ['type', 'to', 'topic', 'content', 'timestamp'] as const;
const fail = (msg: string) => errors.badRequest(msg);

export function parseDraft(value: unknown, name: string): SubmittedDraft {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw fail(`${name} is not a dict`);
  const input = value as Record<string, unknown>;
  const at = (key: string) => `${name}["${key}"]`;
  for (const key of ['type', 'to', 'topic', 'content']) {
    if (!(key in input)) throw fail(`${key} key is missing from ${name}`);
  }
  if (!(DRAFT_TYPES as readonly unknown[]).includes(input.type)) throw fail(`Invalid ${at('type')}`);
  if (!Array.isArray(input.to)) throw fail(`${at('to')} is not a list`);
  input.to.forEach((id, i) => {
    if (typeof id !== 'number' || !Number.isSafeInteger(id)) throw fail(`${at('to')}[${i}] is not an integer`);
  });
  if (typeof input.topic !== 'string') throw fail(`${at('topic')} is not a string`);
  if (typeof input.content !== 'string') throw fail(`${at('content')} is not a string`);
  if (input.content.trim() === '') throw fail(`${at('content')} cannot be blank`);
  const timestamp = input.timestamp ?? null;
  if (timestamp !== null && (typeof timestamp !== 'number' || !Number.isFinite(timestamp))) {
    throw fail(`${at('timestamp')} is not a float`);
  }
  const extra = Object.keys(input).find((key) => !(FIELDS as readonly string[]).includes(key));
  if (extra !== undefined) throw fail(`Argument "${extra}" at ${at(extra)} is unexpected`);
  return {
    type: input.type as SubmittedDraftType,
    to: input.to as number[],
    topic: input.topic,
    content: input.content,
    timestamp: timestamp as number | null,
  };
}

export function parseDraftList(value: unknown, name: string): SubmittedDraft[] {
  if (!Array.isArray(value)) throw fail(`${name} is not a list`);
  return value.map((item, i) => parseDraft(item, `${name}[${i}]`));
}

/** Message bodies and topics are capped as messages are, with the same truncation markers. */
export const MAX_MESSAGE_LENGTH = 10000;
export const MAX_TOPIC_LENGTH = 60;

export function truncate(text: string, max: number, marker: string): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  return chars.slice(0, max - [...marker].length).join('') + marker;
}

/** Content as a message body would be stored: trailing space and leading blank lines dropped. */
export function normalizeContent(content: string): string {
  const body = content.replace(/\s+$/u, '').replace(/^\n+/, '');
  if (body.length === 0) throw fail('Message must not be empty');
  if (body.includes('\u0000')) throw fail('Message must not contain null bytes');
  return truncate(body, MAX_MESSAGE_LENGTH, '\n[message truncated]');
}
