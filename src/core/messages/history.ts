import type { AppDeps } from '../deps';
import { errors } from '../../errors';
import { loadViewer } from '../channels/access';
import { htmlDiff } from '../markdown';
import type { User } from '../users/model';
import { accessMessage } from './access';
import { MessageEditRow, unixTime } from './model';
import { EDIT_HISTORY_VISIBILITY, loadEditHistoryVisibility } from './realm-settings';
import { displayTopic } from './topics';

/**
 * GET /messages/{id}/history: one snapshot per version of the message, oldest first. The first is
 * the message as sent (topic, content, rendered_content, timestamp, user_id); each later one is
 * the message after an edit, with prev_* fields (and content_html_diff) only for what that edit
 * changed. Stored edit rows hold the values before each edit, so snapshots are rebuilt from the
 * current message backwards.
 */
export interface Snapshot {
  topic: string;
  prev_topic?: string;
  stream?: number;
  prev_stream?: number;
  content: string;
  rendered_content: string;
  prev_content?: string;
  prev_rendered_content?: string;
  content_html_diff?: string;
  user_id: number | null;
  timestamp: number;
}

export async function getMessageHistory(deps: AppDeps, user: User, messageId: number, allowEmptyTopicName: boolean): Promise<Snapshot[]> {
  const db = deps.knex;
  const visibility = await loadEditHistoryVisibility(db, deps.realmId);
  if (visibility === EDIT_HISTORY_VISIBILITY.none) throw errors.badRequest('Message edit history is disabled in this organization');
  const viewer = await loadViewer(db, user);
  const { message } = await accessMessage(db, viewer, messageId, { modifying: false });
  const edits: MessageEditRow[] = await db('message_edits').where('message_id', message.id).orderBy('id', 'desc').select('*');
  const channel = message.stream_id !== null;
  const topicName = (topic: string) => (channel ? displayTopic(topic, allowEmptyTopicName) : topic);

  let content = message.content;
  let rendered = message.rendered_content;
  let topic = topicName(message.topic);
  const snapshots: Snapshot[] = [];
  for (const edit of edits) {
    const entry: Snapshot = { content, rendered_content: rendered, timestamp: unixTime(edit.edit_time), topic, user_id: edit.user_id };
    if (edit.prev_topic !== null) {
      topic = topicName(edit.prev_topic);
      entry.prev_topic = topic;
    }
    if (edit.prev_content !== null) {
      entry.prev_content = edit.prev_content;
      entry.prev_rendered_content = edit.prev_rendered_content ?? '';
      entry.content_html_diff = htmlDiff(entry.prev_rendered_content, rendered);
      content = edit.prev_content;
      rendered = entry.prev_rendered_content;
    }
    if (edit.prev_stream_id !== null) {
      entry.prev_stream = edit.prev_stream_id;
      entry.stream = edit.stream_id ?? 0;
    }
    snapshots.push(entry);
  }
  snapshots.push({ content, rendered_content: rendered, timestamp: unixTime(message.date_sent), topic, user_id: message.sender_id });
  snapshots.reverse();
  if (visibility === EDIT_HISTORY_VISIBILITY.moves) return movesOnly(snapshots, message.content, message.rendered_content);
  return snapshots;
}

/** With history limited to moves, content versions stay hidden: every snapshot shows the current content. */
function movesOnly(snapshots: Snapshot[], content: string, rendered: string): Snapshot[] {
  return snapshots
    .filter((s, i) => i === 0 || s.prev_content === undefined || s.prev_topic !== undefined || s.prev_stream !== undefined)
    .map(({ prev_content: _c, prev_rendered_content: _r, content_html_diff: _d, ...rest }) => ({ ...rest, content, rendered_content: rendered }));
}
