import { CHANNEL_LINK, CHANNEL_TOPIC_LINK, EMOJI_NAME, GROUP_MENTION, parseIdMention, STREAM_WILDCARDS, TOPIC_WILDCARDS, USER_MENTION } from './syntax';

/**
 * The names a message may refer to, found with the renderer's own patterns before rendering,
 * so the caller can fetch exactly those users, groups, channels and emoji in one batch. It
 * over-approximates (it does not know about code blocks); the renderer decides what renders.
 */
export interface ReferenceCandidates {
  /** Full names from `@**Name**` (as typed; matched case-insensitively). */
  userNames: string[];
  /** Ids from `@**Name|id**` and `@**|id**`. */
  userIds: number[];
  groupNames: string[];
  channelNames: string[];
  emojiNames: string[];
  /** path_ids of this server's uploads named by `/user_uploads/...` links (as typed and decoded). */
  uploadPathIds: string[];
}

function globalVersion(pattern: RegExp): RegExp {
  return new RegExp(pattern.source, pattern.flags.replace('y', '') + 'g');
}

const USERS = globalVersion(USER_MENTION);
const GROUPS = globalVersion(GROUP_MENTION);
const CHANNELS = globalVersion(CHANNEL_LINK);
const TOPICS = globalVersion(CHANNEL_TOPIC_LINK);
const EMOJI = new RegExp(EMOJI_NAME.source, EMOJI_NAME.flags);

const UPLOAD_LINK = /\/user_uploads\/(\d+\/[^\s()<>[\]"'`?#]+)/g;

function uploadPathIds(content: string): string[] {
  if (!content.includes('/user_uploads/')) return [];
  const out = new Set<string>();
  for (const match of content.matchAll(UPLOAD_LINK)) {
    out.add(match[1]);
    try {
      out.add(match[1].split('/').map(decodeURIComponent).join('/'));
    } catch {
      // Not percent-encoded after all: the path as typed is the only candidate.
    }
  }
  return [...out];
}

export function referenceCandidates(content: string): ReferenceCandidates {
  const userNames = new Set<string>();
  const userIds = new Set<number>();
  for (const match of content.matchAll(USERS)) {
    const text = match[2];
    if (STREAM_WILDCARDS.has(text) || TOPIC_WILDCARDS.has(text)) continue;
    const byId = parseIdMention(text);
    if (byId) userIds.add(byId.id);
    else userNames.add(text);
  }
  const groupNames = new Set([...content.matchAll(GROUPS)].map((m) => m[2]));
  const channelNames = new Set<string>();
  for (const match of content.matchAll(CHANNELS)) channelNames.add(match[1]);
  for (const match of content.matchAll(TOPICS)) channelNames.add(match[1]);
  // Emoji names may share colons ("a:b:c:"), so every position is tried.
  const emojiNames = new Set<string>();
  for (let i = content.indexOf(':'); i >= 0; i = content.indexOf(':', i + 1)) {
    EMOJI.lastIndex = i;
    const match = EMOJI.exec(content);
    if (match) emojiNames.add(match[1]);
  }
  return {
    userNames: [...userNames],
    userIds: [...userIds],
    groupNames: [...groupNames],
    channelNames: [...channelNames],
    emojiNames: [...emojiNames],
    uploadPathIds: uploadPathIds(content),
  };
}
