import { useState } from 'react';
import {
  AddLinkifierMutation,
  ContentQuery,
  RemoveLinkifierMutation,
  ReorderLinkifiersMutation,
  UpdateLinkifierMutation,
} from '../../api/operations/organization';
import { mutate, useAction, useFetched } from './admin-api';
import { Status } from './Status';

type Linkifier = {
  id: string;
  pattern: string;
  urlTemplate: string;
  exampleInput: string | null;
  reverseTemplate: string | null;
  alternativeUrlTemplates: string[];
};

/** Linkifiers: patterns in messages that become links; applied in this order. */
export function LinkifiersSection({ editable }: { editable: boolean }) {
  const { data, error, reload } = useFetched(ContentQuery, {});
  const [pattern, setPattern] = useState('');
  const [template, setTemplate] = useState('');
  const [example, setExample] = useState('');
  const [reverse, setReverse] = useState('');
  const [alternatives, setAlternatives] = useState('');
  const action = useAction();
  const rows = data?.linkifiers ?? [];
  const refresh = () => void reload();
  const move = async (index: number, by: number) => {
    const ids = rows.map((r) => Number(r.id));
    const [moved] = ids.splice(index, 1);
    ids.splice(index + by, 0, moved);
    if (await action.run(() => mutate(ReorderLinkifiersMutation, { ids }), null)) refresh();
  };
  return (
    <>
      {editable ? (
        <form
          className="org-form"
          aria-label="Add a linkifier"
          onSubmit={async (e) => {
            e.preventDefault();
            // One alternative template per line; blank lines are ignored.
            const alternativeUrlTemplates = alternatives
              .split('\n')
              .map((t) => t.trim())
              .filter(Boolean);
            const input = { pattern, urlTemplate: template, exampleInput: example, reverseTemplate: reverse, alternativeUrlTemplates };
            if (await action.run(() => mutate(AddLinkifierMutation, input), 'Linkifier added')) {
              for (const clear of [setPattern, setTemplate, setExample, setReverse, setAlternatives]) clear('');
              refresh();
            }
          }}
        >
          <label htmlFor="linkifier-pattern">Pattern (e.g. #(?P&lt;id&gt;[0-9]+))</label>
          <input id="linkifier-pattern" value={pattern} onChange={(e) => setPattern(e.target.value)} />
          <label htmlFor="linkifier-template">URL template (e.g. https://github.com/zulip/zulip/issues/{'{id}'})</label>
          <input id="linkifier-template" value={template} onChange={(e) => setTemplate(e.target.value)} />
          <label htmlFor="linkifier-example">Example text (e.g. #2468)</label>
          <input id="linkifier-example" value={example} onChange={(e) => setExample(e.target.value)} />
          <label htmlFor="linkifier-reverse">Auto-convert pasted URLs matching the template to (e.g. #{'{id}'}; needs example text)</label>
          <input id="linkifier-reverse" value={reverse} onChange={(e) => setReverse(e.target.value)} />
          <label htmlFor="linkifier-alternatives">Other URL templates to auto-convert, one per line</label>
          <textarea id="linkifier-alternatives" rows={2} value={alternatives} onChange={(e) => setAlternatives(e.target.value)} />
          <button type="submit" className="primary" disabled={action.busy || !pattern || !template}>
            Add linkifier
          </button>
        </form>
      ) : null}
      <Status error={error ?? action.error} done={action.done} />
      <ul className="org-list">
        {rows.map((r, i) => (
          <LinkifierRow
            key={r.id}
            row={r}
            editable={editable}
            first={i === 0}
            last={i === rows.length - 1}
            onMove={(by) => void move(i, by)}
            onChanged={refresh}
          />
        ))}
      </ul>
      {data && rows.length === 0 ? <p className="empty">No linkifiers.</p> : null}
    </>
  );
}

function LinkifierRow(props: { row: Linkifier; editable: boolean; first: boolean; last: boolean; onMove: (by: number) => void; onChanged: () => void }) {
  const { row, editable } = props;
  const [pattern, setPattern] = useState(row.pattern);
  const [template, setTemplate] = useState(row.urlTemplate);
  const action = useAction();
  const id = Number(row.id);
  if (!editable)
    return (
      <li>
        <code>{row.pattern}</code> → <code>{row.urlTemplate}</code>
        <ReverseSummary row={row} />
      </li>
    );
  const changed = pattern !== row.pattern || template !== row.urlTemplate;
  return (
    <li>
      <input aria-label="Pattern" value={pattern} onChange={(e) => setPattern(e.target.value)} />
      <input aria-label="URL template" value={template} onChange={(e) => setTemplate(e.target.value)} />
      <ReverseSummary row={row} />
      <span className="org-actions">
        <button
          type="button"
          disabled={!changed || action.busy}
          onClick={async () => {
            if (await action.run(() => mutate(UpdateLinkifierMutation, { id, pattern, urlTemplate: template }))) props.onChanged();
          }}
        >
          Save
        </button>
        <button type="button" aria-label={`Move ${row.pattern} up`} disabled={props.first} onClick={() => props.onMove(-1)}>
          ↑
        </button>
        <button type="button" aria-label={`Move ${row.pattern} down`} disabled={props.last} onClick={() => props.onMove(1)}>
          ↓
        </button>
        <button
          type="button"
          className="danger"
          aria-label={`Remove the linkifier ${row.pattern}`}
          onClick={async () => {
            if (await action.run(() => mutate(RemoveLinkifierMutation, { id }))) props.onChanged();
          }}
        >
          Remove
        </button>
      </span>
      <Status error={action.error} done={action.done} />
    </li>
  );
}

/** The example and what pasted URLs become, when the linkifier has them. */
function ReverseSummary({ row }: { row: Linkifier }) {
  if (!row.exampleInput) return null;
  return (
    <span className="soft">
      {' '}
      e.g. <code>{row.exampleInput}</code>
      {row.reverseTemplate ? (
        <>
          ; pasted URLs become <code>{row.reverseTemplate}</code>
        </>
      ) : null}
    </span>
  );
}
