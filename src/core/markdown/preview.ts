import type { AppDeps } from '../deps';
import type { User } from '../users/model';
import { MAX_MESSAGE_LENGTH, TRUNCATION_MARKER, truncateContent } from './content';
import { loadRenderContext, LoadContextOptions } from './load-context';
import { renderMarkdown } from './render';

/**
 * Renders content as it would appear if `author` sent it now (POST /messages/render): mentions
 * resolve against the organization's users and groups, and content past the message length limit
 * is cut as sending would cut it (which also bounds the work). Nothing is stored.
 */
export async function renderMessagePreview(
  deps: AppDeps,
  _author: User,
  content: string,
  resolvers: Pick<LoadContextOptions, 'resolveChannels'> = {},
): Promise<string> {
  const text = truncateContent(content, MAX_MESSAGE_LENGTH, TRUNCATION_MARKER);
  const ctx = await loadRenderContext(deps.knex, deps.realmId, text, { realmUrl: deps.config.externalUrl, ...resolvers });
  return renderMarkdown(text, ctx).html;
}
