import { useEffect } from 'react';
import '../../styles/feed.css';
import { type Narrow, narrowKey } from '../../narrow/narrow';
import { openList } from '../../state/message-lists';
import { resumeReading } from '../../state/read-tracking';
import { Compose } from '../compose/Compose';
import { MessageFeed } from './MessageFeed';

/** A narrow's messages, oldest first, and the compose box under them. */
export function NarrowView({ narrow, near }: { narrow: Narrow; near: number | null }) {
  const key = narrowKey(narrow);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for the narrow.
  useEffect(() => {
    resumeReading();
    void openList(narrow, near);
  }, [key, near]);
  return (
    <section className="narrow-view" aria-label="Messages">
      <MessageFeed key={`${key}@${near ?? ''}`} narrow={narrow} near={near} />
      <Compose narrow={narrow} />
    </section>
  );
}
