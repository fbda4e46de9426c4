import type { Knex } from 'knex';
import type { Config } from '../../config';
import { errors } from '../../errors';
import type { User } from '../users/model';
import { usersByEmails } from './addressee';
import { FLAG_BITS, MENTION_MASK } from './flags';
import { findDirectRecipientId } from './model';
import { isRowId } from '../../db/ids';
import { badNarrow, isChannelOperator, NarrowTerm } from './narrow-parse';
import { canonicalTopic, RESOLVED_TOPIC_PREFIX } from './topics';
import { anyOf } from '../../db/lists';

/**
 * Narrows compiled to SQL conditions over `messages m` and `user_messages um`. Like Zulip's
 * NarrowBuilder, a term only ever removes messages from the query it is added to; which messages
 * a user may see at all is decided by the base query (see fetch.ts).
 */
export interface Condition {
  sql: string;
  params: Knex.RawBinding[];
  /** Whether the condition reads columns of `messages` (otherwise only `um`). */
  usesMessage: boolean;
}

export interface CompiledNarrow {
  conditions: Condition[];
  search: string | null;
  /** The channel of the first channel term, if any (muting rules depend on it). */
  channelId: number | null;
}

export interface NarrowContext {
  db: Knex;
  config: Config;
  realmId: number;
  viewer: Pick<User, 'id' | 'role'>;
  /** The column holding the message id in the query being built (`m.id` or `um.message_id`). */
  idColumn: string;
  /**
   * Channels the caller already looked up for this request, by the operand it looked them up with
   * (see `channelLookupKey`): a term with the same operand reuses the row instead of asking again.
   */
  knownChannels?: Map<string, { id: number } | undefined>;
}

/**
 * The key under which a channel found for `operand` may be reused: ids, and names that cannot be
 * read as an id (a numeric string is tried as an id first, then as a name). null: do not reuse.
 */
export function channelLookupKey(operand: string | number): string | null {
  if (typeof operand === 'number') return `id:${operand}`;
  if (/^\d+$/.test(operand)) return null;
  return `name:${operand.trim()}`;
}

const FALSE: Condition = { sql: 'false', params: [], usesMessage: false };
const flagSet = (mask: number): Condition => ({ sql: `(um.flags & ${mask}) <> 0`, params: [], usesMessage: false });
const messageCond = (sql: string, params: Knex.RawBinding[] = []): Condition => ({ sql, params, usesMessage: true });

/** Messages hidden by the viewer's muting: muted channels (unless the topic is unmuted or followed) and muted topics. */
export function mutedCondition(viewerId: number, includeChannelMutes: boolean): Condition {
  const topicPolicy = (policies: string) =>
    `EXISTS (SELECT 1 FROM user_topics ut WHERE ut.user_id = ? AND ut.stream_id = m.stream_id AND lower(ut.topic_name) = lower(m.topic) AND ut.visibility_policy IN (${policies}))`;
  const parts = [topicPolicy('1')];
  const params: Knex.RawBinding[] = [viewerId];
  if (includeChannelMutes) {
    parts.push(`(m.stream_id IN (SELECT s.stream_id FROM subscriptions s WHERE s.user_id = ? AND s.active AND s.is_muted) AND NOT ${topicPolicy('2, 3')})`);
    params.push(viewerId, viewerId);
  }
  return messageCond(`(m.stream_id IS NOT NULL AND (${parts.join(' OR ')}))`, params);
}

async function findStream(db: Knex, realmId: number, operand: string | number): Promise<{ id: number } | undefined> {
  if (typeof operand === 'number' && !isRowId(operand)) return undefined;
  if (typeof operand === 'number') return db('streams').where({ realm_id: realmId, id: operand }).first('id');
  if (/^\d+$/.test(operand) && isRowId(Number(operand))) {
    const byId = await db('streams')
      .where({ realm_id: realmId, id: Number(operand) })
      .first('id');
    if (byId) return byId;
  }
  return db('streams').where('realm_id', realmId).whereRaw('lower(name) = lower(?)', [operand.trim()]).first('id');
}

async function findUser(ctx: NarrowContext, operand: string | number): Promise<{ id: number } | undefined> {
  if (typeof operand === 'number' && !isRowId(operand)) return undefined;
  if (typeof operand === 'number') return ctx.db('users').where({ realm_id: ctx.realmId, id: operand }).first('id');
  const { users } = await usersByEmails(ctx.db, ctx.config, ctx.realmId, ctx.viewer, [operand.trim()]);
  return users[0];
}

/** Zulip prints list operands the Python way in its errors ("[1, 2]"). */
const describe = (operand: NarrowTerm['operand']) => (Array.isArray(operand) ? `[${operand.join(', ')}]` : String(operand));

async function dmUsers(ctx: NarrowContext, operand: NarrowTerm['operand']): Promise<number[]> {
  if (Array.isArray(operand)) {
    const ids = [...new Set(operand)];
    const found =
      ids.length === 0
        ? []
        : await ctx
            .db('users')
            .where('realm_id', ctx.realmId)
            .whereRaw(...anyOf('id', ids))
            .select('id');
    if (ids.length === 0 || found.length !== ids.length) throw badNarrow(`unknown user in ${describe(operand)}`);
    return ids;
  }
  const emails = String(operand)
    .split(',')
    .map((e) => e.trim());
  const { users, unknown } = await usersByEmails(ctx.db, ctx.config, ctx.realmId, ctx.viewer, emails);
  if (unknown !== null || emails.some((e) => e === '')) throw badNarrow(`unknown user in ${describe(operand)}`);
  return users.map((u) => u.id);
}

class NarrowCompiler {
  private channelNarrow = false;
  private dmNarrow = false;
  channelId: number | null = null;

  constructor(private readonly ctx: NarrowContext) {}

  private kind(kind: 'channel' | 'dm'): void {
    if (kind === 'channel') this.channelNarrow = true;
    else this.dmNarrow = true;
    if (this.channelNarrow && this.dmNarrow) throw badNarrow('No message can be both a channel message and direct message');
  }

  async term(term: NarrowTerm): Promise<Condition> {
    const { operator, operand } = term;
    const ctx = this.ctx;
    switch (operator) {
      case 'channel':
      case 'stream': {
        this.kind('channel');
        const key = channelLookupKey(operand as string | number);
        const stream =
          key !== null && ctx.knownChannels?.has(key) ? ctx.knownChannels.get(key) : await findStream(ctx.db, ctx.realmId, operand as string | number);
        if (!stream) throw badNarrow(`unknown channel ${describe(operand)}`);
        this.channelId ??= stream.id;
        return messageCond('m.stream_id = ?', [stream.id]);
      }
      case 'channels':
      case 'streams': {
        this.kind('channel');
        if (operand === 'public') {
          return messageCond('m.stream_id IN (SELECT id FROM streams WHERE realm_id = ? AND NOT invite_only)', [ctx.realmId]);
        }
        if (operand === 'web-public') {
          return messageCond('m.stream_id IN (SELECT id FROM streams WHERE realm_id = ? AND is_web_public AND NOT invite_only)', [ctx.realmId]);
        }
        throw badNarrow(`unknown channels operand ${describe(operand)}`);
      }
      case 'topic':
        this.kind('channel');
        return messageCond('(m.stream_id IS NOT NULL AND lower(m.topic) = lower(?))', [canonicalTopic(String(operand))]);
      case 'sender': {
        const user = await findUser(ctx, operand as string | number);
        if (!user) throw badNarrow(`unknown user ${describe(operand)}`);
        return messageCond('m.sender_id = ?', [user.id]);
      }
      case 'mentions': {
        const user = await findUser(ctx, operand as string | number);
        if (!user) throw badNarrow(`unknown user ${describe(operand)}`);
        return mentionsCondition(ctx.idColumn, user.id);
      }
      case 'near':
        return { sql: 'true', params: [], usesMessage: false };
      case 'id':
        if (!/^\d+$/.test(String(operand))) throw badNarrow('Invalid message ID');
        // A number past the id range names no message (and cannot be compared with the column).
        if (!isRowId(Number(operand))) return FALSE;
        return { sql: `${ctx.idColumn} = ?`, params: [Number(operand)], usesMessage: ctx.idColumn.startsWith('m.') };
      case 'has':
        switch (operand) {
          case 'attachment':
          case 'image':
          case 'link':
            return messageCond(`m.has_${operand}`);
          case 'reaction':
            return { sql: `EXISTS (SELECT 1 FROM reactions r WHERE r.message_id = ${ctx.idColumn})`, params: [], usesMessage: false };
          default:
            throw badNarrow(`unknown 'has' operand ${describe(operand)}`);
        }
      case 'in':
        if (operand === 'home') return negate(mutedCondition(ctx.viewer.id, true));
        if (operand === 'all') return { sql: 'true', params: [], usesMessage: false };
        throw badNarrow(`unknown 'in' operand ${describe(operand)}`);
      case 'is':
        return this.isTerm(String(operand));
      case 'dm':
      case 'pm-with':
      case 'pm_with': {
        this.kind('dm');
        const ids = await dmUsers(ctx, operand);
        const recipientId = await findDirectRecipientId(ctx.db, ctx.realmId, [...ids, ctx.viewer.id]);
        return recipientId === null ? FALSE : messageCond('m.recipient_id = ?', [recipientId]);
      }
      case 'dm-including': {
        this.kind('dm');
        const user = await findUser(ctx, operand as string | number);
        if (!user) throw badNarrow(`unknown user ${describe(operand)}`);
        if (user.id === ctx.viewer.id) return flagSet(FLAG_BITS.is_private);
        return messageCond(
          'm.recipient_id IN (SELECT id FROM message_recipients WHERE realm_id = ? AND dm_key IS NOT NULL AND ? = ANY(user_ids) AND ? = ANY(user_ids))',
          [ctx.realmId, user.id, ctx.viewer.id],
        );
      }
      case 'group-pm-with':
      case 'group_pm_with': {
        this.kind('dm');
        const user = await findUser(ctx, operand as string | number);
        if (!user) throw badNarrow(`unknown user ${describe(operand)}`);
        return messageCond(
          'm.recipient_id IN (SELECT id FROM message_recipients WHERE realm_id = ? AND dm_key IS NOT NULL AND cardinality(user_ids) > 2 AND ? = ANY(user_ids) AND ? = ANY(user_ids))',
          [ctx.realmId, user.id, ctx.viewer.id],
        );
      }
      default:
        throw badNarrow(`unknown operator ${operator}`);
    }
  }

  private isTerm(operand: string): Condition {
    switch (operand) {
      case 'dm':
      case 'private':
        this.kind('dm');
        return flagSet(FLAG_BITS.is_private);
      case 'starred':
        return flagSet(FLAG_BITS.starred);
      case 'unread':
        return { sql: `(um.flags & ${FLAG_BITS.read}) = 0`, params: [], usesMessage: false };
      case 'mentioned':
        return flagSet(MENTION_MASK);
      case 'alerted':
        return flagSet(FLAG_BITS.has_alert_word);
      case 'resolved':
        return messageCond('(m.stream_id IS NOT NULL AND m.topic LIKE ?)', [`${RESOLVED_TOPIC_PREFIX}%`]);
      case 'followed':
        return messageCond(
          '(m.stream_id IS NOT NULL AND EXISTS (SELECT 1 FROM user_topics ut WHERE ut.user_id = ? AND ut.stream_id = m.stream_id AND lower(ut.topic_name) = lower(m.topic) AND ut.visibility_policy = 3))',
          [this.ctx.viewer.id],
        );
      case 'muted':
        return mutedCondition(this.ctx.viewer.id, true);
      default:
        throw badNarrow(`unknown 'is' operand ${operand}`);
    }
  }
}

/**
 * `mentions` (Zulip feature level 446): a direct, visible mention of the user, one that reached
 * them (their own row carries the mention flag). A group mention sets that flag too, and a silent
 * mention none; neither counts, so the rendered message must also hold the mention itself.
 */
function mentionsCondition(idColumn: string, userId: number): Condition {
  return messageCond(
    `(EXISTS (SELECT 1 FROM user_messages mum WHERE mum.user_id = ? AND mum.message_id = ${idColumn} AND (mum.flags & ${FLAG_BITS.mentioned}) <> 0) AND strpos(m.rendered_content, ?) > 0)`,
    [userId, `<span class="user-mention" data-user-id="${userId}">`],
  );
}

export function negate(cond: Condition): Condition {
  return { ...cond, sql: `NOT COALESCE((${cond.sql}), false)` };
}

/** Search: PostgreSQL full-text over topic and rendered content; "quoted phrases" must appear as typed. */
export function searchCondition(search: string): Condition {
  const params: Knex.RawBinding[] = [search];
  let sql = "m.search_tsv @@ plainto_tsquery('english', ?)";
  for (const match of search.matchAll(/"[^"]+"|\S+/g)) {
    const word = match[0];
    if (word.length > 2 && word.startsWith('"') && word.endsWith('"')) {
      const like = `%${word.slice(1, -1).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      sql += ' AND (m.content ILIKE ? OR m.topic ILIKE ?)';
      params.push(like, like);
    }
  }
  return messageCond(`(${sql})`, params);
}

export async function compileNarrow(ctx: NarrowContext, terms: NarrowTerm[]): Promise<CompiledNarrow> {
  const compiler = new NarrowCompiler(ctx);
  const conditions: Condition[] = [];
  const searches: string[] = [];
  for (const term of terms) {
    if (term.operator === 'search') {
      searches.push(String(term.operand));
      continue;
    }
    const cond = await compiler.term(term);
    conditions.push(term.negated ? negate(cond) : cond);
  }
  let search: string | null = null;
  if (searches.length > 0) {
    search = searches.join(' ');
    const negatedSearch = terms.some((t) => t.operator === 'search' && t.negated);
    const cond = searchCondition(search);
    conditions.push(negatedSearch ? negate(cond) : cond);
  }
  return { conditions, search, channelId: compiler.channelId };
}

/** Narrow terms whose channel operand is positive: the ones that may widen results to shared history. */
export function positiveChannelOperands(terms: NarrowTerm[]): (string | number)[] {
  return terms.filter((t) => isChannelOperator(t.operator) && !t.negated).map((t) => t.operand as string | number);
}

export function invalidAnchor() {
  return errors.badRequest('Invalid anchor');
}
