import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { errors } from '../../errors';
import { ChannelViewer, loadViewer } from '../channels/access';
import { Stream } from '../channels/model';
import type { User } from '../users/model';
import { isGuestRole } from '../users/roles';
import { accessMessage, bulkAccessMessages, canReadChannelHistory } from './access';
import { flagList, HISTORICAL_FLAGS } from './flags';
import { isRowId } from '../../db/ids';
import { inParallel } from '../../db/in-parallel';
import { MESSAGE_COLUMNS, messagesByIds, MessageRow, qualified } from './model';
import { channelLookupKey, Condition, compileNarrow, mutedCondition, negate, positiveChannelOperands } from './narrow';
import { NarrowTerm } from './narrow-parse';
import { resolveWithOperator } from './narrow-with';
import { loadEditHistoryVisibility } from './realm-settings';
import { buildWideMessages, finalizeMessage, loadWideContext, MessageViewOptions, WideContext } from './view';
import { listParam } from '../../db/lists';

/** Stands for the realm's edit-history setting when no message has an edit history to apply it to. */
const EDIT_HISTORY_VISIBILITY_UNUSED = -1;

/**
 * Reading messages: GET /messages (a window around an anchor within a narrow), GET
 * /messages/{id}. The base query decides what the user may see: the messages they received
 * (`user_messages`), or, for a narrow to one channel whose history they can read, every message
 * of that channel, as in Zulip.
 */
export const LARGER_THAN_MAX_MESSAGE_ID = 10_000_000_000_000_000;
export const MAX_MESSAGES_PER_FETCH = 5000;

/** null stands for "first_unread". */
export function parseAnchor(raw: string | undefined, useFirstUnreadAnchor: boolean): number | null {
  if (useFirstUnreadAnchor) return null;
  if (raw === undefined) throw errors.badRequest("Missing 'anchor' argument.");
  if (raw === 'oldest') return 0;
  if (raw === 'newest') return LARGER_THAN_MAX_MESSAGE_ID;
  if (raw === 'first_unread') return null;
  if (!/^\s*[-+]?\d+\s*$/.test(raw)) throw errors.badRequest('Invalid anchor');
  const anchor = Number(raw);
  if (anchor < 0) return 0;
  return Math.min(anchor, LARGER_THAN_MAX_MESSAGE_ID);
}

/** A message id, null for "first_unread", or a moment to find the anchor from (see anchor-date.ts). */
export type Anchor = number | null | { date: Date };

export interface FetchWindow {
  anchor: Anchor;
  includeAnchor: boolean;
  numBefore: number;
  numAfter: number;
}

export function checkWindow(window: FetchWindow): void {
  if (window.numBefore + window.numAfter > MAX_MESSAGES_PER_FETCH) {
    throw errors.badRequest(`Too many messages requested (maximum ${MAX_MESSAGES_PER_FETCH}).`);
  }
  if (window.numBefore > 0 && window.numAfter > 0 && !window.includeAnchor) {
    throw errors.badRequest('The anchor can only be excluded at an end of the range');
  }
}

export interface FoundRow {
  id: number;
  /** null: the user can see the message but never received it. */
  flags: number | null;
  /** The message itself, when the query that found it read it too (saves reading it again). */
  message?: MessageRow;
}

/** Channels looked up while deciding on history, reused when the narrow is compiled. */
type KnownChannels = Map<string, { id: number } | undefined>;

export interface FetchedWindow {
  rows: FoundRow[];
  anchor: number;
  foundAnchor: boolean;
  foundOldest: boolean;
  foundNewest: boolean;
  historyLimited: boolean;
  search: string | null;
}

interface BaseQuery {
  from: string;
  where: string[];
  params: Knex.RawBinding[];
  idColumn: string;
  /** Whether `messages m` is joined (some conditions need it). */
  joinsMessages: boolean;
  /** Whether the query reads the messages' columns too, not only ids and flags. */
  readsMessages?: boolean;
}

/** Whether the narrow may include messages the user never received (channel history). */
async function includesHistory(db: Knex, user: User, terms: NarrowTerm[], viewer: () => Promise<ChannelViewer>, known: KnownChannels): Promise<boolean> {
  let include = false;
  for (const term of terms) {
    if (term.negated) continue;
    if (term.operator === 'channel' || term.operator === 'stream') {
      include = await canAccessHistory(db, user, term.operand as string | number, viewer, known);
    } else if ((term.operator === 'channels' || term.operator === 'streams') && term.operand === 'public' && !isGuestRole(user.role)) {
      include = true;
    } else if ((term.operator === 'channels' || term.operator === 'streams') && term.operand === 'web-public') {
      // Web-public history is open to everyone, guests and spectators included.
      include = true;
    }
  }
  if (terms.some((t) => t.operator === 'is')) include = false;
  return include;
}

async function canAccessHistory(db: Knex, user: User, operand: string | number, viewer: () => Promise<ChannelViewer>, known: KnownChannels): Promise<boolean> {
  const query = Stream.query(db).where('realm_id', user.realm_id);
  if (typeof operand === 'number' && !isRowId(operand)) return false;
  const stream = await (typeof operand === 'number' ? query.findById(operand) : query.whereRaw('lower(name) = lower(?)', [operand.trim()]).first());
  const key = channelLookupKey(operand);
  if (key !== null) known.set(key, stream ? { id: stream.id } : undefined);
  if (!stream) return false;
  if (stream.isPublic() && !isGuestRole(user.role)) return true;
  return canReadChannelHistory(await viewer(), stream);
}

function baseQuery(user: User, history: boolean, needsMessages: boolean): BaseQuery {
  if (history) {
    return {
      from: 'messages m LEFT JOIN user_messages um ON um.user_id = ? AND um.message_id = m.id',
      where: ['m.realm_id = ?'],
      params: [user.id, user.realm_id],
      idColumn: 'm.id',
      joinsMessages: true,
    };
  }
  return {
    from: needsMessages ? 'user_messages um JOIN messages m ON m.id = um.message_id' : 'user_messages um',
    where: ['um.user_id = ?'],
    params: [user.id],
    idColumn: 'um.message_id',
    joinsMessages: needsMessages,
  };
}

export async function buildQuery(
  deps: AppDeps,
  db: Knex,
  user: User,
  terms: NarrowTerm[],
  history: boolean,
  extra: (idColumn: string, channelId: number | null) => Condition[] = () => [],
  options: { knownChannels?: KnownChannels; joinMessages?: boolean } = {},
): Promise<{ base: BaseQuery; search: string | null }> {
  const idColumn = history ? 'm.id' : 'um.message_id';
  const compiled = await compileNarrow({ db, config: deps.config, realmId: deps.realmId, viewer: user, idColumn, knownChannels: options.knownChannels }, terms);
  const conditions = [...compiled.conditions, ...extra(idColumn, compiled.channelId)];
  const base = baseQuery(user, history, options.joinMessages === true || conditions.some((c) => c.usesMessage));
  base.readsMessages = options.joinMessages === true;
  for (const cond of conditions) {
    base.where.push(cond.sql);
    base.params.push(...cond.params);
  }
  return { base, search: compiled.search };
}

/** The message columns read along with the ids when the caller will present the messages. */
const WINDOW_MESSAGE_COLUMNS = qualified(
  'm',
  MESSAGE_COLUMNS.filter((c) => c !== 'id'),
).join(', ');

export async function selectRows(
  db: Knex,
  base: BaseQuery,
  range: string,
  rangeParams: Knex.RawBinding[],
  order: 'ASC' | 'DESC',
  limit: number,
): Promise<FoundRow[]> {
  const where = [...base.where, ...(range ? [range] : [])].join(' AND ');
  // The rows come whole when the caller will present them: no second query for them.
  const columns = base.readsMessages ? `, ${WINDOW_MESSAGE_COLUMNS}` : '';
  const sql = `SELECT ${base.idColumn} AS id, um.flags AS flags${columns} FROM ${base.from} WHERE ${where} ORDER BY ${base.idColumn} ${order} LIMIT ?`;
  const result = await db.raw(sql, [...base.params, ...rangeParams, limit]);
  return (result.rows as (MessageRow & { flags: number | null })[]).map((r) => {
    const found: FoundRow = { id: Number(r.id), flags: r.flags === null ? null : Number(r.flags) };
    if (base.readsMessages) {
      const { flags: _flags, ...message } = r;
      found.message = { ...message, id: found.id };
    }
    return found;
  });
}

/** The oldest unread message in the narrow (muted conversations skipped), or "newest". */
async function firstUnreadAnchor(deps: AppDeps, db: Knex, user: User, terms: NarrowTerm[], knownChannels: KnownChannels): Promise<number> {
  const { base } = await buildQuery(
    deps,
    db,
    user,
    terms,
    false,
    (_id, channelId) => [{ sql: '(um.flags & 1) = 0', params: [], usesMessage: false }, negate(mutedCondition(user.id, channelId === null))],
    { knownChannels },
  );
  const rows = await selectRows(db, base, '', [], 'ASC', 1);
  return rows.length > 0 ? rows[0].id : LARGER_THAN_MAX_MESSAGE_ID;
}

/** The oldest message in the narrow sent at or after the date, or "newest" (anchor=date). */
async function dateAnchor(
  deps: AppDeps,
  db: Knex,
  user: User,
  terms: NarrowTerm[],
  history: boolean,
  date: Date,
  knownChannels: KnownChannels,
): Promise<number> {
  const sentSince: Condition = { sql: 'm.date_sent >= ?::timestamptz', params: [date.toISOString()], usesMessage: true };
  const { base } = await buildQuery(deps, db, user, terms, history, () => [sentSince], { knownChannels });
  const rows = await selectRows(db, base, '', [], 'ASC', 1);
  return rows.length > 0 ? rows[0].id : LARGER_THAN_MAX_MESSAGE_ID;
}

/**
 * Zulip's fetch_messages: the window of message ids (and flags) around the anchor. With
 * `withMessages`, each found row also carries the message, read by the same query.
 */
export async function fetchWindow(
  deps: AppDeps,
  db: Knex,
  user: User,
  terms: NarrowTerm[],
  window: FetchWindow,
  options: { withMessages?: boolean } = {},
): Promise<FetchedWindow> {
  if (terms.some((t) => t.operator === 'with')) terms = await resolveWithOperator(db, user, terms);
  let viewer: Promise<ChannelViewer> | null = null;
  const getViewer = () => (viewer ??= loadViewer(db, user));
  const knownChannels: KnownChannels = new Map();
  const history =
    positiveChannelOperands(terms).length > 0 || terms.some((t) => t.operator === 'channels' || t.operator === 'streams')
      ? await includesHistory(db, user, terms, getViewer, knownChannels)
      : false;
  const { base, search } = await buildQuery(deps, db, user, terms, history, undefined, { knownChannels, joinMessages: options.withMessages });
  const anchor =
    typeof window.anchor === 'number'
      ? window.anchor
      : window.anchor === null
        ? await firstUnreadAnchor(deps, db, user, terms, knownChannels)
        : await dateAnchor(deps, db, user, terms, history, window.anchor.date, knownChannels);
  const { includeAnchor } = window;
  let { numBefore, numAfter } = window;

  const anchoredToLeft = anchor === 0;
  const anchoredToRight = anchor >= LARGER_THAN_MAX_MESSAGE_ID;
  if (anchoredToRight) numAfter = 0;
  const needBefore = !anchoredToLeft && numBefore > 0;
  const needAfter = !anchoredToRight && numAfter > 0;
  const id = base.idColumn;
  const queries: (() => Promise<FoundRow[]>)[] = [];
  if (needBefore) {
    let beforeAnchor = anchor - 1;
    let limit = numBefore;
    if (!needAfter) {
      beforeAnchor = anchor - (includeAnchor ? 0 : 1);
      if (!anchoredToRight && includeAnchor) limit += 1;
    }
    queries.push(() =>
      anchoredToRight ? selectRows(db, base, '', [], 'DESC', limit) : selectRows(db, base, `${id} <= ?::bigint`, [beforeAnchor], 'DESC', limit),
    );
  }
  if (needAfter) {
    const afterAnchor = needBefore ? anchor : anchor + (includeAnchor ? 0 : 1);
    const limit = needBefore ? numAfter + 1 : numAfter + (includeAnchor ? 1 : 0);
    queries.push(() => (anchoredToLeft ? selectRows(db, base, '', [], 'ASC', limit) : selectRows(db, base, `${id} >= ?::bigint`, [afterAnchor], 'ASC', limit)));
  }
  if (!needBefore && !needAfter) queries.push(() => selectRows(db, base, `${id} = ?::bigint`, [anchor], 'ASC', 1));
  const rows = (await inParallel<FoundRow[][]>(db, queries)).flat();
  rows.sort((a, b) => a.id - b.id);

  let before: FoundRow[];
  let at: FoundRow[];
  let after: FoundRow[];
  if (anchoredToRight) {
    before = rows;
    at = [];
    after = [];
  } else {
    before = rows.filter((r) => r.id < anchor);
    at = rows.filter((r) => r.id === anchor);
    after = rows.filter((r) => r.id > anchor);
  }
  if (numBefore) before = before.slice(-numBefore);
  if (numAfter) after = after.slice(0, numAfter);
  return {
    rows: [...before, ...at, ...after],
    anchor,
    foundAnchor: at.length === 1,
    foundOldest: anchoredToLeft || before.length < numBefore,
    foundNewest: anchoredToRight || after.length < numAfter,
    historyLimited: false,
    search,
  };
}

/** The topic, HTML-escaped as Zulip escapes it for match_subject. */
export const ESCAPED_TOPIC_SQL = `replace(replace(replace(replace(replace(topic, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;'), '''', '&#x27;')`;

/** Highlighted search matches (match_content, match_subject) for the found messages. */
export async function searchMatches(db: Knex, ids: number[], search: string): Promise<Map<number, { match_content: string; match_subject: string }>> {
  if (ids.length === 0) return new Map();
  const options = 'HighlightAll=TRUE, StartSel=<ts-match>, StopSel=</ts-match>';
  const result = await db.raw(
    `SELECT id,
       ts_headline('english', rendered_content, plainto_tsquery('english', ?), ?) AS content,
       ts_headline('english', ${ESCAPED_TOPIC_SQL}, plainto_tsquery('english', ?), ?) AS subject
     FROM messages WHERE id = ANY(?::int[])`,
    [search, options, search, options, listParam(ids)],
  );
  const highlight = (text: string) => text.replace(/<ts-match>/g, '<span class="highlight">').replace(/<\/ts-match>/g, '</span>');
  return new Map(
    (result.rows as { id: number; content: string; subject: string }[]).map((r) => [
      Number(r.id),
      { match_content: highlight(r.content), match_subject: highlight(r.subject) },
    ]),
  );
}

/** Messages as one client sees them, in id order, with the user's flags. */
export async function presentMessages(
  deps: AppDeps,
  db: Knex,
  found: FoundRow[],
  options: MessageViewOptions,
  search: string | null = null,
): Promise<Record<string, unknown>[]> {
  const ids = found.map((r) => r.id);
  // Rows the window query already read are used as they are; the rest are read now.
  const preloaded = found.every((r) => r.message !== undefined);
  const rows = preloaded ? found.map((r) => r.message!) : await messagesByIds(db, ids);
  // The edit-history setting only shapes the history of edited messages: unread when there are none.
  const edited = rows.some((r) => r.last_edit_time !== null);
  const [ctx, visibility] = await inParallel<[WideContext, number]>(db, [
    () => loadWideContext(db, deps, rows, EDIT_HISTORY_VISIBILITY_UNUSED),
    async () => (edited ? loadEditHistoryVisibility(db, deps.realmId) : EDIT_HISTORY_VISIBILITY_UNUSED),
  ]);
  ctx.editHistoryVisibility = visibility;
  const matches = search ? await searchMatches(db, ids, search) : null;
  const flags = new Map(found.map((r) => [r.id, r.flags]));
  return buildWideMessages(rows, ctx, deps.config).map((wide) => {
    const dict = finalizeMessage(wide, options);
    dict.flags = flagList(flags.get(wide.id) ?? HISTORICAL_FLAGS);
    const match = matches?.get(wide.id);
    if (match) Object.assign(dict, match);
    return dict;
  });
}

export interface GetMessagesRequest extends FetchWindow, MessageViewOptions {
  narrow: NarrowTerm[];
}

export async function getMessages(deps: AppDeps, user: User, request: GetMessagesRequest) {
  checkWindow(request);
  const db = deps.knex;
  const window = await fetchWindow(deps, db, user, request.narrow, request, { withMessages: true });
  const messages = await presentMessages(deps, db, window.rows, request, window.search);
  return {
    messages,
    found_anchor: window.foundAnchor,
    found_oldest: window.foundOldest,
    found_newest: window.foundNewest,
    history_limited: window.historyLimited,
    anchor: window.anchor,
  };
}

/** GET /messages with message_ids: those of the ids the user may see, filtered by the narrow. */
export async function getMessagesByIds(deps: AppDeps, user: User, ids: number[], narrow: NarrowTerm[], options: MessageViewOptions) {
  const db = deps.knex;
  const viewer = await loadViewer(db, user);
  const rows = ids.length === 0 ? [] : await messagesByIds(db, [...new Set(ids)]);
  const accessible = await bulkAccessMessages(
    db,
    viewer,
    rows.filter((r) => r.realm_id === user.realm_id),
  );
  let found: FoundRow[] = accessible.map((a) => ({ id: a.message.id, flags: a.flags }));
  let search: string | null = null;
  if (narrow.some((t) => t.operator === 'with')) narrow = await resolveWithOperator(db, user, narrow);
  if (narrow.length > 0 && found.length > 0) {
    const compiled = await compileNarrow({ db, config: deps.config, realmId: deps.realmId, viewer: user, idColumn: 'm.id' }, narrow);
    search = compiled.search;
    const where = ['m.id = ANY(?::int[])', ...compiled.conditions.map((c) => c.sql)];
    const params = [user.id, listParam(found.map((f) => f.id)), ...compiled.conditions.flatMap((c) => c.params)];
    const result = await db.raw(
      `SELECT m.id FROM messages m
       LEFT JOIN LATERAL (SELECT COALESCE((SELECT flags FROM user_messages WHERE user_id = ? AND message_id = m.id), ${HISTORICAL_FLAGS}) AS flags) um ON true
       WHERE ${where.join(' AND ')}`,
      params,
    );
    const keep = new Set((result.rows as { id: number }[]).map((r) => Number(r.id)));
    found = found.filter((f) => keep.has(f.id));
  }
  found.sort((a, b) => a.id - b.id);
  return { messages: await presentMessages(deps, db, found, options, search) };
}

/** GET /messages/{id}: the message and its raw Markdown. */
export async function getSingleMessage(deps: AppDeps, user: User, messageId: number, options: Omit<MessageViewOptions, 'clientGravatar'>) {
  const db = deps.knex;
  const viewer = await loadViewer(db, user);
  const { message, flags } = await accessMessage(db, viewer, messageId, { modifying: false });
  const [dict] = await presentMessages(deps, db, [{ id: message.id, flags }], { ...options, clientGravatar: false });
  return { raw_content: message.content, message: dict };
}
