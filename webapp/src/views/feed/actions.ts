import { graphQLClient } from '../../api/instance';
import { DeleteMessageMutation, EditMessageMutation, RawMessageQuery } from '../../api/operations/message-actions';
import { UpdateFlagsMutation } from '../../api/operations/messages';
import { pauseReading } from '../../state/read-tracking';
import { getApp } from '../../state/store';
import type { Msg } from '../../state/types';
import { insertIntoCompose } from './compose-bridge';
import { messageUrl } from './grouping';

type Result = { error?: { message: string; graphQLErrors: { message: string }[] } };
const errorOf = (r: Result): string | null => (r.error ? (r.error.graphQLErrors[0]?.message ?? r.error.message) : null);

/** The Markdown a message was written in. */
export async function fetchRawContent(id: number): Promise<string> {
  const r = await graphQLClient().query(RawMessageQuery, { id }, { requestPolicy: 'network-only' }).toPromise();
  const error = errorOf(r);
  if (error || !r.data) throw new Error(error ?? 'The message could not be loaded.');
  return r.data.message.rawContent ?? '';
}

/** Zulip's quote: a silent mention, a link to the message, and the Markdown in a quote block. */
export function quoteText(m: Msg, raw: string, me: number): string {
  const longest = Math.max(2, ...(raw.match(/`{3,}/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return `@_**${m.senderFullName}|${m.senderId}** [said](${messageUrl(m, me)}):\n${fence}quote\n${raw}\n${fence}\n`;
}

export async function quoteAndReply(m: Msg): Promise<void> {
  const { me } = getApp();
  const raw = await fetchRawContent(m.id);
  insertIntoCompose({
    text: quoteText(m, raw, me),
    to:
      m.type === 'stream'
        ? { kind: 'stream', streamId: m.streamId ?? 0, topic: m.topic }
        : { kind: 'dm', userIds: m.recipients.map((r) => r.id).filter((id) => id !== me) },
  });
}

export async function saveEdit(id: number, content: string): Promise<string | null> {
  return errorOf(await graphQLClient().mutation(EditMessageMutation, { id, input: { content } }).toPromise());
}

export async function moveMessages(id: number, change: { topic: string; streamId: number | null; propagateMode: string }): Promise<string | null> {
  const input = { topic: change.topic, propagateMode: change.propagateMode, ...(change.streamId === null ? {} : { streamId: change.streamId }) };
  return errorOf(await graphQLClient().mutation(EditMessageMutation, { id, input }).toPromise());
}

export async function deleteMessage(id: number): Promise<string | null> {
  return errorOf(await graphQLClient().mutation(DeleteMessageMutation, { id }).toPromise());
}

export async function setStarred(id: number, starred: boolean): Promise<string | null> {
  return errorOf(
    await graphQLClient()
      .mutation(UpdateFlagsMutation, { messageIds: [id], op: starred ? 'add' : 'remove', flag: 'starred' })
      .toPromise(),
  );
}

/** Marks the message and those after it in the view unread, and stops reading them again in place. */
export async function markUnreadFrom(id: number, listKey: string): Promise<string | null> {
  const ids = (getApp().lists.get(listKey)?.ids ?? [id]).filter((other) => other >= id);
  pauseReading(listKey);
  return errorOf(await graphQLClient().mutation(UpdateFlagsMutation, { messageIds: ids, op: 'remove', flag: 'read' }).toPromise());
}

export async function copyLink(m: Msg): Promise<void> {
  const url = messageUrl(m, getApp().me);
  if (navigator.clipboard) {
    await navigator.clipboard.writeText(url);
    return;
  }
  // Pages served over plain HTTP (not localhost) have no clipboard API: copy through a selection.
  const field = document.createElement('textarea');
  field.value = url;
  field.setAttribute('readonly', '');
  field.className = 'visually-hidden';
  document.body.append(field);
  field.select();
  const copied = document.execCommand('copy');
  field.remove();
  if (!copied) throw new Error(`The link could not be copied: ${url}`);
}

/** What the user may try on a message; the server has the last word and its refusal is shown. */
export function permissions(m: Msg) {
  const { me, register, users } = getApp();
  const role = users.get(me)?.role ?? 400;
  const own = m.senderId === me;
  const limit = Number(register.realm_message_content_edit_limit_seconds ?? 0);
  const inTime = !limit || Date.now() / 1000 - m.timestamp < limit;
  return {
    edit: own && register.realm_allow_message_editing !== false && inTime && !m.local,
    delete: (own || role <= 200) && !m.local,
    move: m.type === 'stream' && role !== 600 && !m.local,
  };
}
