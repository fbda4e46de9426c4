import { useEffect, useState } from 'react';
import { dmKey } from '../../narrow/narrow';
import type { Addressee } from '../../state/compose-state';
import { topicKey, useApp } from '../../state/store';

/** The store's typing key of a conversation (as state/apply-event.ts files TypingEvents). */
export function typingKey(to: Addressee, me: number): string | null {
  if (to.kind === 'stream') return to.streamId === null || to.topic === '' ? null : `stream:${topicKey(to.streamId, to.topic)}`;
  return to.userIds.length === 0 ? null : `dm:${dmKey(to.userIds, me)}`;
}

function sentence(names: string[]): string {
  if (names.length === 0) return '';
  if (names.length === 1) return `${names[0]} is typing…`;
  if (names.length === 2) return `${names[0]} and ${names[1]} are typing…`;
  if (names.length === 3) return `${names[0]}, ${names[1]} and ${names[2]} are typing…`;
  return 'Several people are typing…';
}

/** Who else is typing in a conversation; entries lapse at their expiry even without a "stop". */
export function TypingIndicator({ to }: { to: Addressee }) {
  const me = useApp((s) => s.me);
  const key = typingKey(to, me);
  const who = useApp((s) => (key ? s.typing.get(key) : undefined));
  const users = useApp((s) => s.users);
  const [now, setNow] = useState(Date.now());
  const active = who ? [...who].filter(([, expiry]) => expiry > now).map(([id]) => id) : [];
  useEffect(() => {
    if (!who || who.size === 0) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [who]);
  const text = sentence(active.map((id) => users.get(id)?.full_name ?? 'Someone'));
  return (
    <div className="typing-indicator" aria-live="polite">
      {text ? <span data-testid="typing">{text}</span> : null}
    </div>
  );
}
