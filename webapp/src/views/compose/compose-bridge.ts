import { currentRoute } from '../../app/route';
import type { Narrow } from '../../narrow/narrow';
import { type Addressee, focusCompose, getCompose, sameAddressee, setCompose } from '../../state/compose-state';
import { getApp } from '../../state/store';
import { draftFor, flushDraft } from './drafts';
import { stopTyping } from './typing';

/**
 * What other views call to open the compose box: the keyboard shortcuts (`c`, `x`), the "New
 * message" buttons and "Quote and reply" (through views/feed/compose-bridge.ts).
 */

/** The conversation a narrow is, if it is one: a channel (and topic) or a direct-message group. */
export function narrowAddressee(narrow: Narrow): Addressee | null {
  const channel = narrow.find((t) => (t.operator === 'channel' || t.operator === 'stream') && !t.negated);
  if (channel && /^\d+$/.test(channel.operand)) {
    const topic = narrow.find((t) => (t.operator === 'topic' || t.operator === 'subject') && !t.negated);
    return { kind: 'stream', streamId: Number(channel.operand), topic: topic?.operand ?? '' };
  }
  const dm = narrow.find((t) => (t.operator === 'dm' || t.operator === 'pm-with') && !t.negated);
  if (dm && /^\d+(,\d+)*$/.test(dm.operand)) {
    const me = getApp().me;
    const ids = dm.operand
      .split(',')
      .map(Number)
      .filter((id) => id !== me);
    return { kind: 'private', userIds: ids.length ? ids : [me] };
  }
  return null;
}

/** Moves the box to another conversation: the text so far is saved as its draft, and the new one's draft comes back. */
export function switchConversation(to: Addressee): void {
  const current = getCompose();
  if (sameAddressee(current.to, to)) {
    if (current.to.kind === 'stream' && to.kind === 'stream' && current.to.topic !== to.topic) setCompose({ to });
    return;
  }
  void flushDraft();
  stopTyping();
  const draft = draftFor(to);
  setCompose({ to, content: draft?.content ?? '', draftId: draft ? Number(draft.id) : null });
}

function currentNarrow(): Narrow {
  const route = currentRoute();
  return route.view === 'narrow' ? route.narrow : [];
}

/** Opens the box to write to a channel (`c`) or to people (`x`), addressed to the current conversation when it is one. */
export function openCompose(kind: 'stream' | 'private'): void {
  const here = narrowAddressee(currentNarrow());
  const { to } = getCompose();
  let next: Addressee;
  if (here?.kind === kind) next = here;
  else if (to.kind === kind) next = to;
  else next = kind === 'stream' ? { kind, streamId: null, topic: '' } : { kind, userIds: [] };
  switchConversation(next);
  setCompose({ open: true });
  const addressed = next.kind === 'stream' ? next.streamId !== null && next.topic !== '' : next.userIds.length > 0;
  focusCompose(addressed ? 'content' : 'to');
}

/** Puts text into the box (a quote), opening it on the current conversation. */
export function quoteIntoCompose(text: string, to?: Addressee): void {
  if (to) switchConversation(to);
  else {
    const here = narrowAddressee(currentNarrow());
    if (here) switchConversation(here);
  }
  const { content } = getCompose();
  const sep = content === '' ? '' : content.endsWith('\n\n') ? '' : content.endsWith('\n') ? '\n' : '\n\n';
  setCompose({ open: true, content: `${content}${sep}${text}` });
  focusCompose('content');
}

export function closeCompose(): void {
  void flushDraft();
  setCompose({ open: false });
}
