/** Message rendering: Zulip-flavored Markdown, mentions, content rules and edit diffs. */
export { buildRenderContext, EMPTY_CONTEXT } from './context';
export type { LinkableChannel, MentionGroup, MentionUser, RenderContext, RenderContextData, RenderRealmEmoji } from './context';
export { MAX_MESSAGE_LENGTH, normalizeMessageContent, TRUNCATION_MARKER, truncateContent } from './content';
export type { MentionSummary } from './env';
export { renderStoredDescription } from './description';
export { htmlDiff } from './html-diff';
export { loadRenderContext } from './load-context';
export type { LoadContextOptions } from './load-context';
export { renderDescription, renderMarkdown } from './render';
export type { RenderResult } from './render';
export { referenceCandidates } from './scan';
export type { ReferenceCandidates } from './scan';
export { renderMessagePreview } from './preview';
