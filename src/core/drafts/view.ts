import type { Draft } from './model';

export interface DraftDict {
  id: number;
  type: '' | 'stream' | 'private';
  to: number[];
  topic: string;
  content: string;
  /** Whole seconds of the last edit. */
  timestamp: number;
}

export function draftDict(draft: Draft): DraftDict {
  return {
    id: draft.id,
    type: draft.type,
    to: [...draft.to],
    topic: draft.topic,
    content: draft.content,
    timestamp: Math.floor(new Date(draft.last_edit_time).getTime() / 1000),
  };
}
