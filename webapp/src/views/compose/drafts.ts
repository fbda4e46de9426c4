import { graphQLClient } from '../../api/instance';
import { CreateDraftsMutation, DeleteDraftMutation, EditDraftMutation } from '../../api/operations/drafts';
import { type Addressee, getCompose, sameAddressee, setCompose } from '../../state/compose-state';
import { getApp } from '../../state/store';
import type { DraftRecord } from '../../state/types';

/**
 * The message being written is kept as a draft on the server (a second after the last keystroke),
 * so that it survives a reload and shows in every tab (DraftsEvent keeps store.drafts current).
 * Saves run one after another, so that a slow create is never followed by a second create.
 */
const DEBOUNCE_MS = 1000;
let timer: ReturnType<typeof setTimeout> | undefined;
let chain: Promise<unknown> = Promise.resolve();
/** Bumped by each send, so that saves asked for before it are dropped. */
let generation = 0;

const enabled = () => getApp().settings.enable_drafts_synchronization !== false;

function draftInput(to: Addressee, content: string) {
  const timestamp = Date.now() / 1000;
  if (to.kind === 'stream') return { type: 'stream', to: to.streamId === null ? [] : [to.streamId], topic: to.topic, content, timestamp };
  return { type: 'private', to: [...to.userIds].sort((a, b) => a - b), topic: '', content, timestamp };
}

/** The saved draft of a conversation, the newest if several. */
export function draftFor(to: Addressee): DraftRecord | undefined {
  const input = draftInput(to, '');
  let found: DraftRecord | undefined;
  for (const d of getApp().drafts.values()) {
    const sameTo = [...d.to].sort((a, b) => a - b).join(',') === input.to.join(',');
    if (d.type !== input.type || !sameTo || d.topic.toLowerCase() !== input.topic.toLowerCase()) continue;
    if (!found || d.timestamp > found.timestamp) found = d;
  }
  return found;
}

function addressed(to: Addressee): boolean {
  return to.kind === 'stream' ? to.streamId !== null : to.userIds.length > 0;
}

async function save(to: Addressee, content: string, draftId: number | null, asOf: number): Promise<void> {
  // The message was sent since this save was asked for: its draft is gone, not to be made again.
  if (asOf !== generation) return;
  const client = graphQLClient();
  if (content.trim() === '' || !addressed(to)) {
    if (draftId !== null) await client.mutation(DeleteDraftMutation, { id: draftId }).toPromise();
    if (getCompose().draftId === draftId) setCompose({ draftId: null });
    return;
  }
  if (draftId !== null) {
    const result = await client.mutation(EditDraftMutation, { id: draftId, draft: draftInput(to, content) }).toPromise();
    if (!result.error) return;
    // Deleted elsewhere: it is created again below.
  }
  const result = await client.mutation(CreateDraftsMutation, { drafts: [draftInput(to, content)] }).toPromise();
  const created = result.data?.createDrafts[0];
  if (!created) return;
  if (asOf !== generation) await client.mutation(DeleteDraftMutation, { id: Number(created.id) }).toPromise();
  else if (sameAddressee(getCompose().to, to)) setCompose({ draftId: Number(created.id) });
}

/** Saves the compose box's text a second after the last change. */
export function saveDraftSoon(): void {
  clearTimeout(timer);
  timer = setTimeout(flushDraft, DEBOUNCE_MS);
}

/** Saves now what the box holds (before it is readdressed or cleared). */
export function flushDraft(): Promise<unknown> {
  clearTimeout(timer);
  if (!enabled()) return chain;
  const { to, content, draftId } = getCompose();
  const asOf = generation;
  // A create still under way when this was asked for has set the id by the time this runs, if the box is still on that conversation.
  const id = () => draftId ?? (sameAddressee(getCompose().to, to) ? getCompose().draftId : null);
  chain = chain.then(() => save(to, content, id(), asOf)).catch(() => undefined);
  return chain;
}

/**
 * The message was sent: its draft goes, including one a save still under way is creating, and
 * saves asked for before the send do nothing.
 */
export function draftSent(draftId: number | null): void {
  clearTimeout(timer);
  generation += 1;
  if (draftId !== null) void deleteDraft(draftId);
}

export function deleteDraft(id: number): Promise<unknown> {
  chain = chain.then(() => graphQLClient().mutation(DeleteDraftMutation, { id }).toPromise()).catch(() => undefined);
  return chain;
}
