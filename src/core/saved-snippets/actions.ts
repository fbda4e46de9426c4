import type { AppDeps } from '../deps';
import { inTransaction } from '../../db/unit-of-work';
import type { User } from '../users/model';
import { checkContent, checkTitle, findOwnSnippet } from './access';
import { SavedSnippet } from './model';
import { savedSnippetDict } from './view';

export async function createSavedSnippet(deps: AppDeps, user: User, input: { title: string; content: string }): Promise<number> {
  const title = checkTitle(input.title);
  const content = checkContent(input.content);
  return inTransaction(deps, deps.realmId, async (uow) => {
    const snippet = await SavedSnippet.query(uow.trx).insertAndFetch({ realm_id: deps.realmId, user_id: user.id, title, content });
    uow.emit({ type: 'saved_snippets', op: 'add', saved_snippet: savedSnippetDict(snippet) }, [user.id]);
    return snippet.id;
  });
}

/** Changes the given fields; a request that changes nothing succeeds without an event. */
export async function editSavedSnippet(deps: AppDeps, user: User, snippetId: number, changes: { title?: string; content?: string }): Promise<void> {
  const title = changes.title === undefined ? undefined : checkTitle(changes.title);
  const content = changes.content === undefined ? undefined : checkContent(changes.content);
  if (title === undefined && content === undefined) return;
  await inTransaction(deps, deps.realmId, async (uow) => {
    const snippet = await findOwnSnippet(uow.trx, user, snippetId);
    const updated = await SavedSnippet.query(uow.trx).patchAndFetchById(snippet.id, {
      ...(title !== undefined ? { title } : {}),
      ...(content !== undefined ? { content } : {}),
    });
    uow.emit({ type: 'saved_snippets', op: 'update', saved_snippet: savedSnippetDict(updated) }, [user.id]);
  });
}

export async function deleteSavedSnippet(deps: AppDeps, user: User, snippetId: number): Promise<void> {
  await inTransaction(deps, deps.realmId, async (uow) => {
    const snippet = await findOwnSnippet(uow.trx, user, snippetId);
    await SavedSnippet.query(uow.trx).deleteById(snippet.id);
    uow.emit({ type: 'saved_snippets', op: 'remove', saved_snippet_id: snippet.id }, [user.id]);
  });
}
