import type { Msg } from '../state/types';

/** A narrow, as Zulip's search operators say it: [{operator: 'channel', operand: '12'}, ...]. */
export interface Term {
  operator: string;
  operand: string;
  negated?: boolean;
}
export type Narrow = Term[];

/** The key a narrow's message list is kept under. */
export function narrowKey(narrow: Narrow): string {
  return JSON.stringify(narrow.map((t) => [t.negated ? `-${t.operator}` : t.operator, t.operand]));
}

const CANONICAL: Record<string, string> = {
  stream: 'channel',
  streams: 'channels',
  pm: 'dm',
  'pm-with': 'dm',
  subject: 'topic',
  from: 'sender',
  group_pm_with: 'dm-including',
};
export const canonicalOperator = (operator: string) => CANONICAL[operator] ?? operator;

/** The ordered, sorted user ids of a DM conversation key ("4,5"), the viewer excluded unless alone. */
export function dmKey(userIds: number[], me: number): string {
  const others = [...new Set(userIds)].filter((id) => id !== me).sort((a, b) => a - b);
  return (others.length === 0 ? [me] : others).join(',');
}

export function messageDmKey(message: Msg, me: number): string {
  return dmKey(
    message.recipients.map((r) => r.id),
    me,
  );
}

/** Terms the server takes: channel and DM operands as ids. */
export function toGraphQLNarrow(narrow: Narrow): { operator: string; operand?: string; operandId?: number; operandIds?: number[]; negated: boolean }[] {
  return narrow.map((t) => {
    const operator = canonicalOperator(t.operator);
    const negated = Boolean(t.negated);
    if ((operator === 'channel' || operator === 'id' || operator === 'near' || operator === 'sender') && /^\d+$/.test(t.operand)) {
      return { operator, operandId: Number(t.operand), negated };
    }
    if ((operator === 'dm' || operator === 'dm-including') && /^\d+(,\d+)*$/.test(t.operand)) {
      const ids = t.operand.split(',').map(Number);
      return operator === 'dm' ? { operator, operandIds: ids, negated } : { operator, operandId: ids[0], negated };
    }
    return { operator, operand: t.operand, negated };
  });
}

/**
 * Whether a message belongs in a narrow, for the terms a client can judge (a live message joins the
 * lists it matches). null: the client cannot tell (search keywords), the server must be asked.
 */
export function matchesNarrow(message: Msg, narrow: Narrow, me: number): boolean | null {
  for (const term of narrow) {
    const operator = canonicalOperator(term.operator);
    let match: boolean | null;
    switch (operator) {
      case 'channel':
        match = message.type === 'stream' && String(message.streamId) === term.operand;
        break;
      case 'topic':
        match = message.type === 'stream' && message.topic.toLowerCase() === term.operand.toLowerCase();
        break;
      case 'dm':
        match = message.type === 'private' && messageDmKey(message, me) === dmKey(term.operand.split(',').map(Number), me);
        break;
      case 'dm-including':
        match = message.type === 'private' && message.recipients.some((r) => String(r.id) === term.operand);
        break;
      case 'sender':
        match = String(message.senderId) === term.operand;
        break;
      case 'is':
        if (term.operand === 'dm' || term.operand === 'private') match = message.type === 'private';
        else if (term.operand === 'starred') match = message.flags.includes('starred');
        else if (term.operand === 'mentioned')
          match = message.flags.some(
            (f) => f === 'mentioned' || f === 'wildcard_mentioned' || f === 'stream_wildcard_mentioned' || f === 'topic_wildcard_mentioned',
          );
        else if (term.operand === 'unread') match = !message.flags.includes('read');
        else match = null;
        break;
      case 'in':
        match = term.operand === 'home' || term.operand === 'all' ? true : null;
        break;
      case 'near':
      case 'with':
        match = true;
        break;
      default:
        match = null;
    }
    if (match === null) return null;
    if (match === Boolean(term.negated)) return false;
  }
  return true;
}
