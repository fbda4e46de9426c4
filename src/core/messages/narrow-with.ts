import type { Knex } from 'knex';
import { isRowId } from '../../db/ids';
import { ApiError } from '../../errors';
import { loadViewer } from '../channels/access';
import type { User } from '../users/model';
import { accessMessage } from './access';
import { dmParticipants } from './model';
import { badNarrow, NarrowTerm } from './narrow-parse';

/**
 * The `with` operator (`with:<message id>`): the conversation holding that message now, wherever
 * it was moved, as Zulip resolves it before fetching. The term's channel/topic/dm terms are replaced
 * by the message's channel and topic, or by its direct-message participants; other terms stay.
 * A message the user cannot see leaves the narrow as it is (without `with`) when that narrow names a
 * conversation itself, else it is "Invalid 'with' operator".
 */
const CONVERSATION_OPERATORS = ['stream', 'channel', 'topic', 'dm', 'pm-with'];

export async function resolveWithOperator(db: Knex, user: User, terms: NarrowTerm[]): Promise<NarrowTerm[]> {
  const withTerms = terms.filter((t) => t.operator === 'with');
  if (withTerms.length === 0) return terms;
  if (withTerms.length > 1) {
    throw new ApiError('BAD_NARROW', "Invalid narrow operator combination: Duplicate 'with' operators.", 400, { desc: "Duplicate 'with' operators." });
  }
  const rest = terms.filter((t) => t !== withTerms[0]);
  const operand = String(withTerms[0].operand).trim();
  if (!/^[-+]?\d+$/.test(operand)) throw badNarrow("Invalid 'with' operator");
  const inaccessible = () => {
    if (definesConversation(rest)) return rest;
    throw badNarrow("Invalid 'with' operator");
  };
  const messageId = Number(operand);
  if (!isRowId(messageId)) return inaccessible();
  let message;
  try {
    ({ message } = await accessMessage(db, await loadViewer(db, user), messageId, { modifying: false }));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return inaccessible();
  }
  const others = rest.filter((t) => !CONVERSATION_OPERATORS.includes(t.operator));
  const conversation: NarrowTerm[] =
    message.stream_id !== null
      ? [
          { operator: 'channel', operand: message.stream_id, negated: false },
          { operator: 'topic', operand: message.topic, negated: false },
        ]
      : [{ operator: 'dm', operand: message.dm_key === null ? [user.id] : dmParticipants(message.dm_key), negated: false }];
  return [...conversation, ...others];
}

function definesConversation(terms: NarrowTerm[]): boolean {
  if (terms.some((t) => t.operator === 'dm' || t.operator === 'pm-with')) return true;
  return terms.some((t) => t.operator === 'stream' || t.operator === 'channel') && terms.some((t) => t.operator === 'topic');
}
