import { create } from 'zustand';

/** Where the message being written goes. */
export type Addressee = { kind: 'stream'; streamId: number | null; topic: string } | { kind: 'private'; userIds: number[] };

export interface ComposeState {
  /** Whether the box is open outside a conversation's narrow (where it is always open). */
  open: boolean;
  to: Addressee;
  content: string;
  /** The server draft this text is saved in, if any. */
  draftId: number | null;
  /** Bumped to ask the box to focus a field (after `c`, `x` or a quote). */
  focus: { field: 'to' | 'content'; seq: number } | null;
}

export const useCompose = create<ComposeState>(() => ({
  open: false,
  to: { kind: 'stream', streamId: null, topic: '' },
  content: '',
  draftId: null,
  focus: null,
}));

export const getCompose = () => useCompose.getState();
export const setCompose = (change: Partial<ComposeState>) => useCompose.setState(change);

let seq = 0;
export function focusCompose(field: 'to' | 'content'): void {
  seq += 1;
  setCompose({ focus: { field, seq } });
}

/** The key of a conversation, as drafts and typing notifications group them. */
export function addresseeKey(to: Addressee): string | null {
  if (to.kind === 'stream') return to.streamId === null ? null : `stream:${to.streamId}:${to.topic.trim().toLowerCase()}`;
  if (to.userIds.length === 0) return null;
  return `dm:${[...to.userIds].sort((a, b) => a - b).join(',')}`;
}

export function sameAddressee(a: Addressee, b: Addressee): boolean {
  return addresseeKey(a) === addresseeKey(b);
}
