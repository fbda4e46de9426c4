import type { Knex } from 'knex';
import { ApiError, errors } from '../../errors';
import type { User } from '../users/model';
import { SavedSnippet } from './model';
import { isRowId } from '../../db/ids';

export const MAX_TITLE_LENGTH = 60;
/** Snippets go into messages, so they are bound like a message body. */
export const MAX_CONTENT_LENGTH = 10000;

/** Titles and contents are stored trimmed, and must not be empty once trimmed. */
export function checkTitle(raw: string): string {
  const title = raw.trim();
  if (title === '') throw errors.badRequest('Title cannot be empty.');
  if ([...title].length > MAX_TITLE_LENGTH) throw errors.badRequest(`title is too long (limit: ${MAX_TITLE_LENGTH} characters)`);
  return title;
}

export function checkContent(raw: string): string {
  const content = raw.trim();
  if (content === '') throw errors.badRequest('Content cannot be empty.');
  if ([...content].length > MAX_CONTENT_LENGTH) {
    throw errors.badRequest(`content is too long (limit: ${MAX_CONTENT_LENGTH} characters)`);
  }
  return content;
}

/** One of the user's own snippets; someone else's gets the same answer as a missing one. */
export async function findOwnSnippet(db: Knex, user: User, snippetId: number): Promise<SavedSnippet> {
  const snippet = isRowId(snippetId) ? await SavedSnippet.query(db).findOne({ id: snippetId, user_id: user.id, realm_id: user.realm_id }) : undefined;
  if (!snippet) throw new ApiError('BAD_REQUEST', 'Saved snippet does not exist.', 404);
  return snippet;
}
