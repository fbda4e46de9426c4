import { useEffect, useState } from 'react';
import { graphQLClient } from '../../api/instance';
import { RenderMessageQuery } from '../../api/operations/compose';

/** The message as the server will render it. */
export function Preview({ content }: { content: string }) {
  const [html, setHtml] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setHtml(null);
    setError(null);
    if (content.trim() === '') return;
    void graphQLClient()
      .query(RenderMessageQuery, { content }, { requestPolicy: 'network-only' })
      .toPromise()
      .then((r) => {
        if (!live) return;
        if (r.data) setHtml(r.data.renderMessage);
        else setError(r.error?.graphQLErrors[0]?.message ?? 'The preview could not be made.');
      });
    return () => {
      live = false;
    };
  }, [content]);
  return (
    <section className="compose-preview" aria-live="polite" aria-label="Preview of the message">
      {content.trim() === '' ? <p className="muted">Nothing to preview.</p> : null}
      {error ? <p role="alert">{error}</p> : null}
      {html === null && !error && content.trim() !== '' ? <p className="muted">Rendering…</p> : null}
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: the server's sanitized HTML; the page's policy runs no inline script */}
      {html !== null ? <div className="message-content rendered-markdown" dangerouslySetInnerHTML={{ __html: html }} /> : null}
    </section>
  );
}
