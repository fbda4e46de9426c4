import type { Knex } from 'knex';
import type { Config } from '../../config';
import { errors } from '../../errors';
import { encodeChannel, encodeHashComponent } from '../markdown/url';
import { MAX_MESSAGE_LENGTH, truncateContent } from '../markdown';
import type { MessageRow } from '../messages/model';

/** Longest note a reminder may carry (Zulip's MAX_REMINDER_NOTE_LENGTH). */
export const MAX_REMINDER_NOTE_LENGTH = 1000;

export function normalizeNote(note: string): string {
  const body = note.trimEnd().replace(/^\n+/, '');
  if ([...body].length > MAX_REMINDER_NOTE_LENGTH) throw errors.badRequest(`Maximum reminder note length: ${MAX_REMINDER_NOTE_LENGTH} characters`);
  return body;
}

interface Person {
  id: number;
  full_name: string;
}

const silentMention = (user: Person) => `@_**${user.full_name}|${user.id}**`;

/** "A", "A and B", "A, B, and C", as Zulip lists users. */
function listUsers(users: Person[]): string {
  const mentions = users.map(silentMention);
  if (mentions.length <= 2) return mentions.join(' and ');
  return `${mentions.slice(0, -1).join(', ')}, and ${mentions[mentions.length - 1]}`;
}

/** A code fence the quoted text does not contain. */
function unusedFence(text: string): string {
  let longest = 0;
  for (const match of text.matchAll(/^\s*(`{3,})/gm)) longest = Math.max(longest, match[1].length);
  return '`'.repeat(Math.max(3, longest + 1));
}

/**
 * The notification bot's reminder of a message, as Zulip words it: who said it where (with a
 * link), and the message quoted (a poll or to-do list is named instead).
 */
export async function reminderContent(db: Knex, config: Config, message: MessageRow, note: string | null): Promise<string> {
  const sender: Person = await db('users').where({ id: message.sender_id }).first('id', 'full_name');
  let content: string;
  let said: string;
  let sent: (widget: string) => string;
  if (message.stream_id !== null) {
    const stream: { id: number; name: string } = await db('streams').where({ id: message.stream_id }).first('id', 'name');
    const url = `${config.externalUrl}/#narrow/channel/${encodeChannel(stream.id, stream.name)}/topic/${encodeHashComponent(message.topic)}/near/${message.id}`;
    const where = `#**${stream.name}>${message.topic}@${message.id}**`;
    content = note ? `You requested a reminder for the following message. Note:\n > ${note}` : 'You requested a reminder for the following message.';
    said = `${silentMention(sender)} [said](${url}) in ${where}:`;
    sent = (widget) => `${silentMention(sender)} [sent](${url}) a ${widget} in ${where}.`;
  } else {
    const participants: Person[] = await db('users')
      .join('user_messages', 'user_messages.user_id', 'users.id')
      .where('user_messages.message_id', message.id)
      .orderBy('users.id')
      .select('users.id', 'users.full_name');
    let others = participants.filter((u) => u.id !== sender.id);
    if (others.length === 0) others = [sender];
    const ids = participants.map((u) => u.id).join(',');
    const url = `${config.externalUrl}/#narrow/dm/${ids}-${participants.length > 2 ? 'group' : 'dm'}/near/${message.id}`;
    content = note
      ? `You requested a reminder for the following direct message. Note:\n > ${note}`
      : 'You requested a reminder for the following direct message.';
    said = `${silentMention(sender)} [said](${url}) to ${listUsers(others)}:`;
    sent = (widget) => `${silentMention(sender)} [sent](${url}) a ${widget} to ${listUsers(others)}.`;
  }
  content += '\n\n';
  if (message.content.startsWith('/poll')) return content + sent('poll');
  if (message.content.startsWith('/todo')) return content + sent('todo list');
  content += `${said}\n`;
  const fence = unusedFence(content + message.content);
  const overhead = [...`${content}${fence}quote\n\n${fence}`].length;
  const quoted = truncateContent(message.content, MAX_MESSAGE_LENGTH - overhead, '\n[message truncated]');
  return `${content}${fence}quote\n${quoted}\n${fence}`;
}
