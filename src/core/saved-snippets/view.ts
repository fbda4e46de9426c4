import type { SavedSnippet } from './model';

export interface SavedSnippetDict {
  id: number;
  title: string;
  content: string;
  /** UNIX seconds. */
  date_created: number;
}

export function savedSnippetDict(snippet: SavedSnippet): SavedSnippetDict {
  return {
    id: snippet.id,
    title: snippet.title,
    content: snippet.content,
    date_created: Math.floor(new Date(snippet.date_created).getTime() / 1000),
  };
}
