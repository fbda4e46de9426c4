import type { Knex } from 'knex';
import { FLAG_BITS } from '../messages/flags';
import { recursiveMemberIds } from '../groups/membership';

/** The group through which a mobile notification's recipient was mentioned. */
export interface MentionedGroup {
  id: number;
  name: string;
}

// Loud mentions only: silent ones notify nobody.
const LOUD_GROUP_MENTION = /<span class="user-group-mention" data-user-group-id="(\d+)">/g;
const LOUD_USER_MENTION = /<span class="user-mention" data-user-id="(\d+)">/g;

/**
 * As Zulip names it in mobile notifications: only when the recipient was mentioned through a group
 * and not by name (a personal mention takes precedence), the smallest of the mentioned groups the
 * recipient belongs to, directly or through subgroups. Both kinds of mention set the `mentioned`
 * flag, so the message's own mentions tell them apart.
 */
export async function mentionedGroup(db: Knex, realmId: number, userId: number, flags: number, html: string): Promise<MentionedGroup | null> {
  if ((flags & (FLAG_BITS.mentioned | FLAG_BITS.group_mentioned)) === 0) return null;
  if ([...html.matchAll(LOUD_USER_MENTION)].some((m) => Number(m[1]) === userId)) return null;
  const ids = [...new Set([...html.matchAll(LOUD_GROUP_MENTION)].map((m) => Number(m[1])))];
  let best: (MentionedGroup & { size: number }) | null = null;
  for (const id of ids) {
    const members = await recursiveMemberIds(db, realmId, [id]);
    if (!members.has(userId) || (best && best.size <= members.size)) continue;
    const group = await db('user_groups').where({ id, realm_id: realmId }).first('name');
    if (group) best = { id, name: group.name as string, size: members.size };
  }
  return best && { id: best.id, name: best.name };
}
