import { canonicalOperator } from '../../narrow/narrow';
import { tokenize } from '../../narrow/search';
import type { AppState } from '../../state/store';

/** One suggestion: the whole query it would make, and how it reads. */
export interface Suggestion {
  query: string;
  label: string;
  detail?: string;
}

const OPERATOR_HINTS: Suggestion[] = [
  { query: 'channel:', label: 'channel:', detail: 'Messages in a channel' },
  { query: 'topic:', label: 'topic:', detail: 'Messages in a topic' },
  { query: 'sender:', label: 'sender:', detail: 'Sent by a person' },
  { query: 'dm:', label: 'dm:', detail: 'Direct messages with a person' },
  { query: 'is:dm', label: 'is:dm', detail: 'All direct messages' },
  { query: 'is:starred', label: 'is:starred', detail: 'Starred messages' },
  { query: 'is:mentioned', label: 'is:mentioned', detail: 'Messages that mention you' },
  { query: 'is:unread', label: 'is:unread', detail: 'Unread messages' },
  { query: 'has:link', label: 'has:link', detail: 'Messages with links' },
  { query: 'has:image', label: 'has:image', detail: 'Messages with images' },
  { query: 'has:attachment', label: 'has:attachment', detail: 'Messages with attachments' },
];

const quote = (text: string) => (/\s/.test(text) ? `"${text}"` : text);
const LIMIT = 8;

/** Suggestions for what is being typed: the last word completes, the words before it stay. */
export function suggest(input: string, state: AppState): Suggestion[] {
  const endsWithSpace = /\s$/.test(input) || input === '';
  const tokens = tokenize(input);
  const last = endsWithSpace ? '' : (tokens.pop() ?? '');
  const before = tokens.join(' ');
  const prefix = before ? `${before} ` : '';
  const out: Suggestion[] = [];
  const match = /^(-?)([a-z-]+):(.*)$/i.exec(last);
  if (match) {
    const [, neg, rawOperator, partial] = match;
    const operator = canonicalOperator(rawOperator.toLowerCase());
    const text = partial.toLowerCase();
    const add = (operand: string, label: string, detail?: string) =>
      out.push({ query: `${prefix}${neg}${rawOperator}:${quote(operand)}`, label: `${neg}${rawOperator}:${label}`, detail });
    if (operator === 'channel') {
      for (const c of [...state.subscriptions.values(), ...state.channels.values()]) {
        if (c.name.toLowerCase().includes(text) && !out.some((s) => s.label.endsWith(`:${c.name}`))) add(c.name, c.name, c.description);
      }
    } else if (operator === 'sender' || operator === 'dm' || operator === 'dm-including') {
      // dm: takes several people, comma-separated: the last one is being typed.
      const chosen = operator === 'dm' ? text.split(',').slice(0, -1) : [];
      const typed = operator === 'dm' ? (text.split(',').pop() ?? '') : text;
      const before = chosen.length > 0 ? `${chosen.join(',')},` : '';
      for (const u of state.users.values()) {
        if (!u.is_active || chosen.includes(u.email.toLowerCase())) continue;
        if (u.full_name.toLowerCase().includes(typed) || u.email.toLowerCase().includes(typed)) add(`${before}${u.email}`, `${before}${u.full_name}`, u.email);
      }
    } else if (operator === 'topic') {
      const channelToken = tokens.find((t) => /^(channel|stream):/i.test(t));
      const name = channelToken?.replace(/^\w+:/, '').toLowerCase();
      const channel = [...state.channels.values()].find((c) => c.name.toLowerCase() === name);
      const topics = channel ? [...(state.topics.get(channel.stream_id)?.values() ?? [])].sort((a, b) => b.maxId - a.maxId) : [];
      for (const t of topics) if (t.name.toLowerCase().includes(text)) add(t.name, t.name);
    } else if (operator === 'is' || operator === 'has') {
      for (const hint of OPERATOR_HINTS) {
        if (hint.query.startsWith(`${operator}:${text}`))
          out.push({ query: `${prefix}${neg}${hint.query}`, label: `${neg}${hint.label}`, detail: hint.detail });
      }
    }
    return out.slice(0, LIMIT);
  }
  if (last) out.push({ query: `${prefix}${last}`, label: `${prefix}${last}`, detail: 'Search for these words' });
  const word = last.replace(/^-/, '').toLowerCase();
  for (const hint of OPERATOR_HINTS)
    if (hint.query.startsWith(word)) out.push({ query: `${prefix}${last.startsWith('-') ? '-' : ''}${hint.query}`, label: hint.label, detail: hint.detail });
  if (word) {
    for (const c of state.subscriptions.values()) {
      if (c.name.toLowerCase().includes(word)) out.push({ query: `${prefix}channel:${quote(c.name)}`, label: `channel:${c.name}`, detail: 'Channel' });
    }
    for (const u of state.users.values()) {
      if (u.is_active && u.full_name.toLowerCase().includes(word))
        out.push({ query: `${prefix}sender:${u.email}`, label: `sender:${u.full_name}`, detail: u.email });
    }
  }
  return out.slice(0, LIMIT);
}
