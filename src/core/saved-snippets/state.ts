import type { StateSlice } from '../register/slice';
import { listSavedSnippets } from './queries';
import type { SavedSnippetDict } from './view';

/** `saved_snippets`: the user's snippets. */
export const savedSnippetsSlice: StateSlice = {
  fetchTypes: ['saved_snippets'],
  async fetch(deps, user) {
    return { saved_snippets: await listSavedSnippets(deps.knex, user) };
  },
  apply(state, event) {
    if (event.type !== 'saved_snippets') return;
    const snippets = state.saved_snippets as SavedSnippetDict[];
    if (event.op === 'add') {
      const snippet = event.saved_snippet as SavedSnippetDict;
      if (!snippets.some((s) => s.id === snippet.id)) snippets.push(snippet);
    } else if (event.op === 'update') {
      const snippet = event.saved_snippet as SavedSnippetDict;
      const index = snippets.findIndex((s) => s.id === snippet.id);
      if (index >= 0) snippets[index] = snippet;
    } else if (event.op === 'remove') {
      state.saved_snippets = snippets.filter((s) => s.id !== event.saved_snippet_id);
    }
  },
};
