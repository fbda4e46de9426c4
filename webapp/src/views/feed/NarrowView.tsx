import { useEffect } from 'react';
import '../../styles/feed.css';
import { type Narrow, narrowKey } from '../../narrow/narrow';
import { openList } from '../../state/message-lists';
import { resumeReading } from '../../state/read-tracking';
import { getApp, setApp } from '../../state/store';
import { Compose } from '../compose/Compose';
import { MessageFeed } from './MessageFeed';

/** A narrow's messages, oldest first, and the compose box under them. */
export function NarrowView({ narrow, near }: { narrow: Narrow; near: number | null }) {
  const key = narrowKey(narrow);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for the narrow.
  useEffect(() => {
    resumeReading();
    // A link to a message outside the stretch of the list already loaded starts the list anew
    // there, rather than leaving a gap between what was loaded and the new page.
    const known = getApp().lists.get(key);
    if (near !== null && known && known.ids.length > 0 && (near < known.ids[0] || near > known.ids[known.ids.length - 1])) {
      setApp((s) => {
        const lists = new Map(s.lists);
        lists.delete(key);
        return { lists };
      });
    }
    void openList(narrow, near);
  }, [key, near]);
  return (
    <section className="narrow-view" aria-label="Messages">
      <MessageFeed key={`${key}@${near ?? ''}`} narrow={narrow} near={near} />
      <Compose narrow={narrow} />
    </section>
  );
}
