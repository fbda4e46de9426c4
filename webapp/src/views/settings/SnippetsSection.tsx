import { type FormEvent, useState } from 'react';
import { CreateSavedSnippetMutation, DeleteSavedSnippetMutation } from '../../api/operations/settings';
import { setApp, useApp } from '../../state/store';
import { SaveStatus, useSaving } from './controls';
import { run } from './save';

interface Snippet {
  id: number;
  title: string;
  content: string;
  date_created: number;
}

/** The register's saved_snippets, changed in this tab at once (the saved_snippets event repeats it). */
function setSnippets(change: (list: Snippet[]) => Snippet[]) {
  setApp((s) => ({ register: { ...s.register, saved_snippets: change((s.register.saved_snippets ?? []) as Snippet[]) } }));
}

/** #settings/saved-snippets: texts to insert into messages. */
export function SnippetsSection() {
  const snippets = useApp((s) => (s.register.saved_snippets ?? []) as Snippet[]);
  const [title, setTitle] = useState('');
  const [content, setContent] = useState('');
  const [state, save] = useSaving();
  const create = (e: FormEvent) => {
    e.preventDefault();
    void save(async () => {
      const outcome = await run(CreateSavedSnippetMutation, { title: title.trim(), content });
      if (outcome.error !== null) return outcome.error;
      const s = outcome.data.createSavedSnippet;
      setSnippets((list) => [
        ...list.filter((x) => x.id !== Number(s.id)),
        { id: Number(s.id), title: s.title, content: s.content, date_created: s.dateCreated },
      ]);
      setTitle('');
      setContent('');
      return null;
    });
  };
  const remove = (id: number) =>
    void save(async () => {
      const outcome = await run(DeleteSavedSnippetMutation, { id });
      if (outcome.error !== null) return outcome.error;
      setSnippets((list) => list.filter((x) => x.id !== id));
      return null;
    });
  return (
    <>
      <form className="setting-row stacked snippet-form" onSubmit={create}>
        <label htmlFor="settings-snippet-title">Title</label>
        <input id="settings-snippet-title" value={title} maxLength={200} onChange={(e) => setTitle(e.target.value)} />
        <label htmlFor="settings-snippet-content">Content</label>
        <textarea id="settings-snippet-content" rows={3} value={content} onChange={(e) => setContent(e.target.value)} />
        <button type="submit" disabled={!title.trim() || !content.trim()}>
          Save snippet
        </button>
        <SaveStatus state={state} />
      </form>
      {snippets.length === 0 ? (
        <p className="empty">No saved snippets yet.</p>
      ) : (
        <ul className="settings-list" aria-label="Saved snippets">
          {snippets.map((s) => (
            <li key={s.id}>
              <div>
                <strong>{s.title}</strong>
                <pre className="snippet-content">{s.content}</pre>
              </div>
              <button type="button" onClick={() => remove(s.id)}>
                Delete<span className="visually-hidden"> {s.title}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
