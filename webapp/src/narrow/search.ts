import { canonicalOperator, type Narrow, type Term } from './narrow';

/**
 * Zulip's search language: `channel:design topic:"new logo" sender:ann@example.com -is:starred logo`.
 * Operands with spaces are quoted or written with `+`; words without an operator become one `search`
 * term. Channel, sender and DM operands become ids when the names resolve, as narrows keep them.
 */
export interface SearchLookup {
  channelId(name: string): number | undefined;
  channelName(id: number): string | undefined;
  /** By email, or by full name when it is unique. */
  userId(text: string): number | undefined;
  userEmail(id: number): string | undefined;
}

export const OPERATORS = ['channel', 'topic', 'sender', 'dm', 'dm-including', 'has', 'is', 'near', 'id', 'search', 'channels'] as const;

/** Splits a query into tokens, keeping quoted text (`topic:"a b"`) together. */
export function tokenize(query: string): string[] {
  const tokens: string[] = [];
  const pattern = /(-?[\w-]+:)?"([^"]*)"?|\S+/g;
  for (let m = pattern.exec(query); m; m = pattern.exec(query)) {
    tokens.push(m[2] !== undefined ? `${m[1] ?? ''}${m[2]}` : m[0]);
  }
  return tokens;
}

function decodeOperand(text: string): string {
  return text.replace(/\+/g, ' ');
}

function resolveOperand(operator: string, operand: string, lookup: SearchLookup): string {
  if (operator === 'channel') {
    if (/^\d+$/.test(operand) && lookup.channelName(Number(operand)) !== undefined) return operand;
    return String(lookup.channelId(operand) ?? operand);
  }
  if (operator === 'sender' || operator === 'dm-including') {
    if (/^\d+$/.test(operand)) return operand;
    return String(lookup.userId(operand) ?? operand);
  }
  if (operator === 'dm') {
    const parts = operand
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean);
    const ids = parts.map((p) => (/^\d+$/.test(p) ? Number(p) : lookup.userId(p)));
    return ids.every((id) => id !== undefined) ? ids.join(',') : operand;
  }
  if (operator === 'is' && operand === 'private') return 'dm';
  return operand;
}

export function parseSearch(query: string, lookup: SearchLookup): Narrow {
  const terms: Narrow = [];
  const words: string[] = [];
  for (const token of tokenize(query)) {
    const match = /^(-?)([a-z][\w-]*):(.*)$/i.exec(token);
    const operator = match ? canonicalOperator(match[2].toLowerCase()) : '';
    if (!match || !(OPERATORS as readonly string[]).includes(operator) || match[3] === '') {
      words.push(token);
      continue;
    }
    const operand = resolveOperand(operator, decodeOperand(match[3]), lookup);
    if (operator === 'search') {
      words.push(operand);
      continue;
    }
    const term: Term = { operator, operand };
    if (match[1]) term.negated = true;
    terms.push(term);
  }
  if (words.length > 0) terms.push({ operator: 'search', operand: words.join(' ') });
  return terms;
}

function quote(text: string): string {
  return /\s/.test(text) ? `"${text}"` : text;
}

/** A narrow as the search box shows it, names instead of ids. */
export function narrowToSearch(narrow: Narrow, lookup: SearchLookup): string {
  return narrow
    .map((term) => {
      const operator = canonicalOperator(term.operator);
      if (operator === 'search') return term.operand;
      let operand = term.operand;
      if (operator === 'channel' && /^\d+$/.test(operand)) operand = lookup.channelName(Number(operand)) ?? operand;
      if ((operator === 'sender' || operator === 'dm-including') && /^\d+$/.test(operand)) operand = lookup.userEmail(Number(operand)) ?? operand;
      if (operator === 'dm' && /^[\d,]+$/.test(operand))
        operand = operand
          .split(',')
          .map((id) => lookup.userEmail(Number(id)) ?? id)
          .join(',');
      return `${term.negated ? '-' : ''}${operator}:${quote(operand)}`;
    })
    .join(' ');
}
