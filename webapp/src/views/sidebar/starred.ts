import type { AppState } from '../../state/store';

let cache: { register: unknown; messages: unknown; value: number } | null = null;

/** Starred messages: those /register listed, corrected by the flags of the messages this tab holds. */
export function starredCount(state: AppState): number {
  if (cache && cache.register === state.register && cache.messages === state.messages) return cache.value;
  const ids = new Set<number>((state.register.starred_messages as number[] | undefined) ?? []);
  for (const m of state.messages.values()) {
    if (m.flags.includes('starred')) ids.add(m.id);
    else ids.delete(m.id);
  }
  cache = { register: state.register, messages: state.messages, value: ids.size };
  return ids.size;
}
