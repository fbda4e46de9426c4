import type { Knex } from 'knex';
import { anyOf } from '../../db/lists';

export interface ReactionRow {
  id: number;
  message_id: number;
  user_id: number;
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
}

/** Reactions of each message, oldest first, in the shape message dictionaries carry. */
export async function reactionsForMessages(
  db: Knex,
  messageIds: number[],
): Promise<Map<number, { emoji_name: string; emoji_code: string; reaction_type: string; user_id: number }[]>> {
  const out = new Map<number, { emoji_name: string; emoji_code: string; reaction_type: string; user_id: number }[]>();
  if (messageIds.length === 0) return out;
  const rows: ReactionRow[] = await db('reactions')
    .whereRaw(...anyOf('message_id', messageIds))
    .orderBy('id')
    .select('id', 'message_id', 'user_id', 'emoji_name', 'emoji_code', 'reaction_type');
  for (const row of rows) {
    const list = out.get(row.message_id) ?? [];
    list.push({ emoji_name: row.emoji_name, emoji_code: row.emoji_code, reaction_type: row.reaction_type, user_id: row.user_id });
    out.set(row.message_id, list);
  }
  return out;
}
