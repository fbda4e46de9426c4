import type { Knex } from 'knex';
import type { User } from '../users/model';
import { SavedSnippet } from './model';
import { savedSnippetDict, SavedSnippetDict } from './view';

export async function listSavedSnippets(db: Knex, user: User): Promise<SavedSnippetDict[]> {
  const snippets = await SavedSnippet.query(db).where({ realm_id: user.realm_id, user_id: user.id }).orderBy('id');
  return snippets.map(savedSnippetDict);
}
