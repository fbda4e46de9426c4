import { errors } from '../../errors';
import type { WidgetType } from './widget';

/**
 * The checks Zulip applies to a submessage acting on a poll or a to-do list, with its messages:
 * the object must be a dict with a string `type`, and each type has exactly its own keys.
 * Changing a poll's question or a list's title is for the message's author only.
 */

/** The highest option or task index a client may send (Zulip's MAX_IDX). */
export const MAX_IDX = 1000;

type Check = (value: unknown, name: string) => void;

const fail = (msg: string) => errors.badRequest(msg);

const isDict = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const string: Check = (value, name) => {
  if (typeof value !== 'string') throw fail(`${name} is not a string`);
};
const bool: Check = (value, name) => {
  if (typeof value !== 'boolean') throw fail(`${name} is not a boolean`);
};
const int: Check = (value, name) => {
  if (typeof value !== 'number' || !Number.isInteger(value)) throw fail(`${name} is not an integer`);
};
const intIn =
  (allowed: number[]): Check =>
  (value, name) => {
    int(value, name);
    if (!allowed.includes(value as number)) throw fail(`Invalid ${name}`);
  };
const intRange =
  (low: number, high: number): Check =>
  (value, name) => {
    int(value, name);
    if ((value as number) < low) throw fail(`${name} is too small`);
    if ((value as number) > high) throw fail(`${name} is too large`);
  };

/** Exactly these keys, each checked in order; anything else is "Unexpected arguments". */
function exactly(data: Record<string, unknown>, what: string, keys: [string, Check][]): void {
  for (const [key, check] of keys) {
    if (!(key in data)) throw fail(`${key} key is missing from ${what}`);
    check(data[key], `${what}["${key}"]`);
  }
  const extra = Object.keys(data).filter((key) => !keys.some(([known]) => known === key));
  if (extra.length > 0) throw fail(`Unexpected arguments: ${extra.join(', ')}`);
}

/** The dict and its `type`, checked as every widget's data is. */
function typed(data: unknown, what: string): Record<string, unknown> & { type: string } {
  if (!isDict(data)) throw fail(`${what} is not a dict`);
  if (!('type' in data)) throw fail(`type key is missing from ${what}`);
  string(data.type, `${what}["type"]`);
  return data as Record<string, unknown> & { type: string };
}

/** The keys of one type of action on a widget, and whom it is for when not for everyone. */
interface Shape {
  keys: [string, Check][];
  /** The refusal for anyone but the message's author. */
  authorOnly?: string;
}

const POLL: Record<string, Shape> = {
  vote: {
    keys: [
      ['type', string],
      ['key', string],
      ['vote', intIn([1, -1])],
    ],
  },
  question: {
    authorOnly: "You can't edit a question unless you are the author.",
    keys: [
      ['type', string],
      ['question', string],
    ],
  },
  new_option: {
    keys: [
      ['type', string],
      ['option', string],
      ['idx', intRange(0, MAX_IDX)],
    ],
  },
};

const TODO: Record<string, Shape> = {
  new_task: {
    keys: [
      ['type', string],
      ['key', intRange(0, MAX_IDX)],
      ['task', string],
      ['desc', string],
      ['completed', bool],
    ],
  },
  strike: {
    keys: [
      ['type', string],
      ['key', string],
    ],
  },
  new_task_list_title: {
    authorOnly: "You can't edit the task list title unless you are the author.",
    keys: [
      ['type', string],
      ['title', string],
    ],
  },
};

function checkShape(what: string, shapes: Record<string, Shape>, value: unknown, isAuthor: boolean): void {
  const data = typed(value, what);
  const shape = Object.hasOwn(shapes, data.type) ? shapes[data.type] : undefined;
  if (!shape) throw fail(`Unknown type for ${what}: ${data.type}`);
  if (shape.authorOnly !== undefined && !isAuthor) throw fail(shape.authorOnly);
  exactly(data, what, shape.keys);
}

/** Parses a submessage's content: JSON, or "Invalid json for submessage". */
export function parseSubmessageContent(content: string): unknown {
  try {
    return JSON.parse(content);
  } catch {
    throw fail('Invalid json for submessage');
  }
}

/** Checks data acting on a widget of the given type; other widgets' data is not checked (as in Zulip). */
export function checkWidgetData(widgetType: string | null, data: unknown, isAuthor: boolean): void {
  const type = widgetType as WidgetType | null;
  if (type === 'poll') checkShape('poll data', POLL, data, isAuthor);
  else if (type === 'todo') checkShape('todo data', TODO, data, isAuthor);
}
