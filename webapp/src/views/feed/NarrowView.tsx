import { useEffect } from 'react';
import { type Narrow, narrowKey } from '../../narrow/narrow';
import { openList } from '../../state/message-lists';
import { useApp } from '../../state/store';
import { Compose } from '../compose/Compose';

/** A narrow's messages, oldest first, and the compose box under them. */
export function NarrowView({ narrow, near }: { narrow: Narrow; near: number | null }) {
  const key = narrowKey(narrow);
  const list = useApp((s) => s.lists.get(key));
  const messages = useApp((s) => s.messages);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for the narrow.
  useEffect(() => {
    void openList(narrow, near);
  }, [key, near]);
  return (
    <section className="narrow-view" aria-label="Messages">
      <ol className="message-list">
        {(list?.ids ?? []).map((id) => {
          const m = messages.get(id);
          if (!m) return null;
          return (
            <li key={id} className="message" data-message-id={id}>
              <strong className="sender">{m.senderFullName}</strong>
              {/* biome-ignore lint/security/noDangerouslySetInnerHtml: the server's sanitized HTML; the page's policy runs no inline script */}
              <div className="content" dangerouslySetInnerHTML={{ __html: m.content }} />
            </li>
          );
        })}
      </ol>
      <Compose narrow={narrow} />
    </section>
  );
}
