import { useState } from 'react';
import { AddPlaygroundMutation, ContentQuery, RemovePlaygroundMutation } from '../../api/operations/organization';
import { mutate, useAction, useFetched } from './admin-api';
import { Status } from './Status';

/** Code playgrounds: where a code block of a language can be opened. */
export function PlaygroundsSection({ editable }: { editable: boolean }) {
  const { data, error, reload } = useFetched(ContentQuery, {});
  const [language, setLanguage] = useState('');
  const [name, setName] = useState('');
  const [template, setTemplate] = useState('');
  const action = useAction();
  const rows = data?.codePlaygrounds ?? [];
  return (
    <>
      {editable ? (
        <form
          className="org-form"
          aria-label="Add a code playground"
          onSubmit={async (e) => {
            e.preventDefault();
            if (await action.run(() => mutate(AddPlaygroundMutation, { name, pygmentsLanguage: language, urlTemplate: template }), 'Playground added')) {
              setLanguage('');
              setName('');
              setTemplate('');
              void reload();
            }
          }}
        >
          <label htmlFor="playground-language">Language (e.g. Python)</label>
          <input id="playground-language" value={language} onChange={(e) => setLanguage(e.target.value)} />
          <label htmlFor="playground-name">Name (e.g. Python playground)</label>
          <input id="playground-name" value={name} onChange={(e) => setName(e.target.value)} />
          <label htmlFor="playground-template">URL template (e.g. https://python.example/?code={'{code}'})</label>
          <input id="playground-template" value={template} onChange={(e) => setTemplate(e.target.value)} />
          <button type="submit" className="primary" disabled={action.busy || !language || !name || !template}>
            Add code playground
          </button>
        </form>
      ) : null}
      <Status error={error ?? action.error} done={action.done} />
      <table className="org-table">
        <thead>
          <tr>
            <th scope="col">Language</th>
            <th scope="col">Name</th>
            <th scope="col">URL template</th>
            {editable ? <th scope="col">Actions</th> : null}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id}>
              <td>{r.pygmentsLanguage}</td>
              <td>{r.name}</td>
              <td>
                <code>{r.urlTemplate}</code>
              </td>
              {editable ? (
                <td>
                  <button
                    type="button"
                    className="danger"
                    aria-label={`Remove the playground ${r.name}`}
                    onClick={async () => {
                      if (await action.run(() => mutate(RemovePlaygroundMutation, { id: Number(r.id) }), 'Removed')) void reload();
                    }}
                  >
                    Remove
                  </button>
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
      {data && rows.length === 0 ? <p className="empty">No code playgrounds.</p> : null}
    </>
  );
}
