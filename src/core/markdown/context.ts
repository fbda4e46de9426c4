import type { CompiledLinkifier } from '../linkifiers/compiled';

/**
 * What the renderer may know about the organization. The renderer itself is pure: callers
 * resolve the names a message refers to in one batch (see `referenceCandidates` and
 * `loadRenderContext`) and hand them over here.
 */
export interface MentionUser {
  id: number;
  fullName: string;
  /** Mentions of deactivated users render, but silently. */
  isActive: boolean;
}

export interface MentionGroup {
  id: number;
  name: string;
  /** Mentions of deactivated groups render, but silently. */
  deactivated: boolean;
}

export interface LinkableChannel {
  id: number;
  name: string;
}

export interface RenderRealmEmoji {
  id: number;
  name: string;
  /** Image path relative to the server's URL. */
  sourceUrl: string;
}

/** What the renderer knows of an uploaded image a message links (Zulip's ImageAttachment). */
export interface UploadPreview {
  width: number;
  height: number;
  contentType: string;
  /** The thumbnail written into the message; null while thumbnails are being made. */
  thumbnailUrl: string | null;
  animated: boolean;
  /** For types browsers may not show: the name of the large rendition made in their place. */
  transcodedImage: string | null;
}

export interface RenderContext {
  /** The organization's URL; links into it become relative, as Zulip writes them. */
  realmUrl?: string;
  /** By full name, case-insensitively. */
  userByName(name: string): MentionUser | undefined;
  userById(id: number): MentionUser | undefined;
  /** By exact name. */
  groupByName(name: string): MentionGroup | undefined;
  /** By exact name; only channels the author may link to. */
  channelByName(name: string): LinkableChannel | undefined;
  /** Active custom emoji by name. */
  realmEmoji(name: string): RenderRealmEmoji | undefined;
  /** The organization's linkifiers, in the order they apply. */
  linkifiers: readonly CompiledLinkifier[];
  /** Uploaded images by path_id; absent when the text links none. */
  uploadPreview?: (pathId: string) => UploadPreview | undefined;
  /** The language of code blocks that name none (the organization's default_code_block_language); '' for none. */
  defaultCodeLanguage: string;
}

export interface RenderContextData {
  realmUrl?: string;
  users?: MentionUser[];
  groups?: MentionGroup[];
  channels?: LinkableChannel[];
  realmEmoji?: RenderRealmEmoji[];
  linkifiers?: readonly CompiledLinkifier[];
  uploadPreviews?: ReadonlyMap<string, UploadPreview>;
  defaultCodeLanguage?: string;
}

/** Indexes resolved rows for the renderer. */
export function buildRenderContext(data: RenderContextData = {}): RenderContext {
  const byName = new Map<string, MentionUser>();
  const byId = new Map<number, MentionUser>();
  for (const user of data.users ?? []) {
    byName.set(user.fullName.toLowerCase(), user);
    byId.set(user.id, user);
  }
  const groups = new Map((data.groups ?? []).map((g) => [g.name, g]));
  const channels = new Map((data.channels ?? []).map((c) => [c.name, c]));
  const emoji = new Map((data.realmEmoji ?? []).map((e) => [e.name, e]));
  return {
    realmUrl: data.realmUrl,
    userByName: (name) => byName.get(name.toLowerCase()),
    userById: (id) => byId.get(id),
    groupByName: (name) => groups.get(name),
    channelByName: (name) => channels.get(name),
    realmEmoji: (name) => emoji.get(name),
    linkifiers: data.linkifiers ?? [],
    uploadPreview: data.uploadPreviews && data.uploadPreviews.size > 0 ? (pathId) => data.uploadPreviews!.get(pathId) : undefined,
    defaultCodeLanguage: data.defaultCodeLanguage ?? '',
  };
}

/** A context that resolves nothing: mentions and channel links stay text, Unicode emoji still render. */
export const EMPTY_CONTEXT: RenderContext = buildRenderContext();
