import type { Knex } from 'knex';
import { loadRenderContext, LoadContextOptions } from './load-context';
import { renderDescription } from './render';

/**
 * A description (channel, channel folder, profile field value) as it is stored: `renderDescription`
 * with the custom emoji and channel links the text names, resolved for the person writing it.
 * Blank text renders as an empty string.
 */
export async function renderStoredDescription(db: Knex, realmId: number, text: string, options: LoadContextOptions = {}): Promise<string> {
  if (text.trim() === '') return '';
  return renderDescription(text, await loadRenderContext(db, realmId, text, options));
}
