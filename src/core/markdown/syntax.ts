/**
 * The Zulip-specific syntaxes, as regular expressions shared by the renderer and by the scan
 * that finds which names a message may refer to.
 */

/** A mention must start the text or follow whitespace or one of these characters. */
export const MENTION_PRECEDERS = /[\s'"({[/<]/u;
/** Links to channels may not follow "[" (so `[#**channel**](url)` is not linked twice). */
export const CHANNEL_LINK_PRECEDERS = /[\s'"({/<]/u;

export const USER_MENTION = /@(_?)\*\*([^*]+)\*\*/y;
export const GROUP_MENTION = /@(_?)\*([^*]+)\*/y;
export const CHANNEL_TOPIC_MESSAGE_LINK = /#\*\*([^*>]+)>([^*]+)@(\d+)\*\*/y;
export const CHANNEL_TOPIC_LINK = /#\*\*([^*>]+)>([^*]+)\*\*/y;
export const CHANNEL_LINK = /#\*\*([^*]+)\*\*/y;
export const EMOJI_NAME = /:([\p{L}\p{M}\p{N}_+-]+):/uy;

export const STREAM_WILDCARDS = new Set(['all', 'everyone', 'stream', 'channel']);
export const TOPIC_WILDCARDS = new Set(['topic']);

/** `@**Name|12**` and `@**|12**`. */
export function parseIdMention(text: string): { fullName: string | undefined; id: number } | null {
  const match = /^(.+)?\|(\d+)$/su.exec(text);
  if (!match) return null;
  const id = Number(match[2]);
  return Number.isSafeInteger(id) ? { fullName: match[1], id } : null;
}

/** Whether the character before `index` allows a mention or link to start there. */
export function startAllowed(src: string, index: number, preceders: RegExp): boolean {
  if (index === 0) return true;
  return preceders.test(src[index - 1]);
}
