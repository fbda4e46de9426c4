import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { reactionsForMessages } from '../reactions/queries';
import { submessagesForMessages } from '../submessages/queries';
import type { SubmessageDict } from '../submessages/view';
import { inParallel } from '../../db/in-parallel';
import { realmLinkifiers } from '../linkifiers/cache';
import type { CompiledLinkifier } from '../linkifiers/compiled';
import { topicLinks } from '../linkifiers/topic-links';
import { MessageEditRow, MessageRow, dmParticipants, unixTime } from './model';
import { apiEmail, avatarUrl, displayRecipientEntry, hasPublicGravatar, loadPeople, PersonRow } from './people';
import { EDIT_HISTORY_VISIBILITY } from './realm-settings';
import { displayTopic, unresolvedName } from './topics';
import { anyOf } from '../../db/lists';

/**
 * Zulip-shaped message dictionaries. A message is first built in its "wide" form, the same for
 * every viewer: raw and rendered content side by side, the avatar URL, and whether a client doing
 * its own gravatars could compute it. `finalizeMessage` then produces what one client sees
 * (apply_markdown, client_gravatar, allow_empty_topic_name). Events carry the wide form; event
 * queues finalize it per client (see events.ts).
 */
export interface EditHistoryEntry {
  user_id: number | null;
  timestamp: number;
  prev_content?: string;
  prev_rendered_content?: string;
  prev_topic?: string;
  topic?: string;
  prev_stream?: number;
  stream?: number;
}

export interface ReactionDict {
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
  user_id: number;
}

export interface WideMessage {
  id: number;
  sender_id: number;
  content: string;
  rendered_content: string;
  recipient_id: number;
  timestamp: number;
  client: string;
  subject: string;
  topic_links: { text: string; url: string }[];
  is_me_message: boolean;
  reactions: ReactionDict[];
  submessages: SubmessageDict[];
  sender_full_name: string;
  sender_email: string;
  sender_realm_str: string;
  display_recipient: string | { id: number; email: string; full_name: string; is_mirror_dummy: boolean }[];
  type: 'stream' | 'private';
  stream_id?: number;
  avatar_url: string | null;
  edit_history?: EditHistoryEntry[];
  last_edit_timestamp?: number;
  last_moved_timestamp?: number;
  /** Wide form only: avatar_url may be null for clients with client_gravatar. */
  sender_has_public_gravatar?: boolean;
}

export interface MessageViewOptions {
  applyMarkdown: boolean;
  clientGravatar: boolean;
  allowEmptyTopicName: boolean;
}

/** Zulip's "/me" status messages. */
export const isMeMessage = (content: string) => content.startsWith('/me ');

const realmStrings = new WeakMap<object, string>();

/** The organization's string id (sender_realm_str), read once per server. */
export async function realmString(db: Knex, deps: Pick<AppDeps, 'realmId'>): Promise<string> {
  const cached = realmStrings.get(deps);
  if (cached !== undefined) return cached;
  const row = await db('realms').where({ id: deps.realmId }).first('string_id');
  realmStrings.set(deps, row.string_id);
  return row.string_id;
}

export interface WideContext {
  people: Map<number, PersonRow>;
  streamNames: Map<number, string>;
  reactions: Map<number, ReactionDict[]>;
  submessages: Map<number, SubmessageDict[]>;
  edits: Map<number, MessageEditRow[]>;
  realmStr: string;
  editHistoryVisibility: number;
  /** The organization's linkifiers, for topic_links. */
  linkifiers: readonly CompiledLinkifier[];
}

/** Fetches everything a batch of messages needs to be presented: one query per kind. */
export async function loadWideContext(db: Knex, deps: Pick<AppDeps, 'realmId'>, messages: MessageRow[], editHistoryVisibility: number): Promise<WideContext> {
  const personIds = new Set<number>();
  const streamIds = new Set<number>();
  for (const m of messages) {
    personIds.add(m.sender_id);
    if (m.dm_key !== null) for (const id of dmParticipants(m.dm_key)) personIds.add(id);
    if (m.stream_id !== null) streamIds.add(m.stream_id);
  }
  const ids = messages.map((m) => m.id);
  const edited = messages.filter((m) => m.last_edit_time !== null).map((m) => m.id);
  const [people, streams, reactions, submessages, editRows, realmStr] = await inParallel<
    [Map<number, PersonRow>, { id: number; name: string }[], Map<number, ReactionDict[]>, Map<number, SubmessageDict[]>, MessageEditRow[], string]
  >(db, [
    () => loadPeople(db, deps.realmId, personIds),
    async () =>
      streamIds.size === 0
        ? []
        : db('streams')
            .whereRaw(...anyOf('id', [...streamIds]))
            .select('id', 'name'),
    () => reactionsForMessages(db, ids),
    () => submessagesForMessages(db, ids),
    async () =>
      edited.length === 0
        ? []
        : db('message_edits')
            .whereRaw(...anyOf('message_id', edited))
            .orderBy('id')
            .select('*'),
    () => realmString(db, deps),
  ]);
  const edits = new Map<number, MessageEditRow[]>();
  const linkifiers = await realmLinkifiers(db, deps.realmId);
  for (const row of editRows) {
    const list = edits.get(row.message_id) ?? [];
    list.push(row);
    edits.set(row.message_id, list);
  }
  return {
    people,
    streamNames: new Map(streams.map((s) => [s.id, s.name])),
    reactions,
    submessages,
    edits,
    realmStr,
    editHistoryVisibility,
    linkifiers,
  };
}

/** Edit history as stored on messages: newest first, only the fields each edit changed. */
export function editHistoryEntries(rows: MessageEditRow[]): EditHistoryEntry[] {
  return rows
    .slice()
    .reverse()
    .map((row) => {
      const entry: EditHistoryEntry = { user_id: row.user_id, timestamp: unixTime(row.edit_time) };
      if (row.prev_content !== null) {
        entry.prev_content = row.prev_content;
        entry.prev_rendered_content = row.prev_rendered_content ?? '';
      }
      if (row.prev_topic !== null) {
        entry.prev_topic = row.prev_topic;
        entry.topic = row.topic ?? '';
      }
      if (row.prev_stream_id !== null) {
        entry.prev_stream = row.prev_stream_id;
        entry.stream = row.stream_id ?? 0;
      }
      return entry;
    });
}

/** Resolving or unresolving a topic is not a move. */
export function isResolveToggle(topic: string, prevTopic: string): boolean {
  return topic !== prevTopic && unresolvedName(topic) === unresolvedName(prevTopic) && (topic.startsWith('✔') || prevTopic.startsWith('✔'));
}

export function wideMessage(message: MessageRow, ctx: WideContext, config: AppDeps['config']): WideMessage {
  const sender = ctx.people.get(message.sender_id);
  const wide: WideMessage = {
    id: message.id,
    sender_id: message.sender_id,
    content: message.content,
    rendered_content: message.rendered_content,
    recipient_id: message.recipient_id,
    timestamp: unixTime(message.date_sent),
    client: message.sending_client,
    subject: message.topic,
    topic_links: topicLinks(message.topic, ctx.linkifiers),
    is_me_message: isMeMessage(message.content),
    reactions: ctx.reactions.get(message.id) ?? [],
    submessages: ctx.submessages.get(message.id) ?? [],
    sender_full_name: sender?.full_name ?? '',
    sender_email: sender ? apiEmail(config, sender) : '',
    sender_realm_str: ctx.realmStr,
    display_recipient: '',
    type: message.stream_id === null ? 'private' : 'stream',
    avatar_url: sender ? avatarUrl(sender) : null,
    sender_has_public_gravatar: sender ? hasPublicGravatar(sender) : false,
  };
  if (message.stream_id !== null) {
    wide.stream_id = message.stream_id;
    wide.display_recipient = ctx.streamNames.get(message.stream_id) ?? '';
  } else if (message.dm_key !== null) {
    wide.display_recipient = dmParticipants(message.dm_key)
      .map((id) => ctx.people.get(id))
      .filter((p): p is PersonRow => p !== undefined)
      .map((p) => displayRecipientEntry(config, p));
  }
  const edits = ctx.edits.get(message.id);
  if (edits && edits.length > 0) applyEditHistory(wide, edits, ctx.editHistoryVisibility);
  return wide;
}

function applyEditHistory(wide: WideMessage, rows: MessageEditRow[], visibility: number): void {
  const history = editHistoryEntries(rows);
  let lastEdit = 0;
  let lastMove = 0;
  for (const item of history) {
    if (item.prev_stream !== undefined) lastMove = Math.max(lastMove, item.timestamp);
    else if (item.prev_topic !== undefined && !isResolveToggle(item.topic ?? '', item.prev_topic)) lastMove = Math.max(lastMove, item.timestamp);
    if (item.prev_content !== undefined) lastEdit = Math.max(lastEdit, item.timestamp);
  }
  if (lastEdit) wide.last_edit_timestamp = lastEdit;
  if (lastMove) wide.last_moved_timestamp = lastMove;
  if (visibility === EDIT_HISTORY_VISIBILITY.none) return;
  wide.edit_history =
    visibility === EDIT_HISTORY_VISIBILITY.all
      ? history
      : history
          .filter((item) => item.prev_content === undefined || item.prev_topic !== undefined || item.prev_stream !== undefined)
          .map(({ prev_content: _c, prev_rendered_content: _r, ...rest }) => rest);
}

export function buildWideMessages(messages: MessageRow[], ctx: WideContext, config: AppDeps['config']): WideMessage[] {
  return messages.map((m) => wideMessage(m, ctx, config));
}

/** What one client sees of a wide message. */
export function finalizeMessage(wide: WideMessage, options: MessageViewOptions): Record<string, unknown> {
  const { rendered_content, sender_has_public_gravatar, ...rest } = wide;
  const out: Record<string, unknown> = { ...rest };
  out.content = options.applyMarkdown ? rendered_content : wide.content;
  out.content_type = options.applyMarkdown ? 'text/html' : 'text/x-markdown';
  if (options.clientGravatar && sender_has_public_gravatar) out.avatar_url = null;
  if (wide.type === 'stream') {
    out.subject = displayTopic(wide.subject, options.allowEmptyTopicName);
    if (wide.edit_history) {
      out.edit_history = wide.edit_history.map((item) => {
        const copy = { ...item };
        if (copy.topic !== undefined) copy.topic = displayTopic(copy.topic, options.allowEmptyTopicName);
        if (copy.prev_topic !== undefined) copy.prev_topic = displayTopic(copy.prev_topic, options.allowEmptyTopicName);
        return copy;
      });
    }
  }
  return out;
}
