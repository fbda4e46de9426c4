import type { AppDeps } from '../../deps';
import type { User } from '../users/model';
import { loadRenderContext, LoadContextOptions } from './load-context';
import { renderMarkdown } from './render';

/**
 * Renders content as it would appear if `author` sent it now (POST /messages/render): mentions
 * resolve against the organization's users and groups. Nothing is stored.
 */
export async function renderMessagePreview(
  deps: AppDeps,
  _author: User,
  content: string,
  resolvers: Pick<LoadContextOptions, 'resolveChannels'> = {},
): Promise<string> {
  const ctx = await loadRenderContext(deps.knex, deps.realmId, content, { realmUrl: deps.config.externalUrl, ...resolvers });
  return renderMarkdown(content, ctx).html;
}
