import { lookup } from '../../app/lookup';
import { narrowHash } from '../../narrow/hash';
import { useApp } from '../../state/store';
import type { Msg } from '../../state/types';
import { conversationNarrow, formatDate } from './grouping';

/** The conversation a run of messages belongs to, linking to it: `#channel > topic` or "You and Bob". */
export function RecipientBar({ message }: { message: Msg }) {
  const me = useApp((s) => s.me);
  const channel = useApp((s) => (message.streamId === null ? undefined : s.channels.get(message.streamId)));
  const color = useApp((s) => (message.streamId === null ? undefined : s.subscriptions.get(message.streamId)?.color));
  const date = formatDate(message.timestamp);
  if (message.type === 'stream') {
    const channelHash = narrowHash([{ operator: 'channel', operand: String(message.streamId) }], lookup);
    const topicHash = narrowHash(conversationNarrow(message, me), lookup);
    return (
      <div className="recipient-bar" style={color ? { borderLeftColor: color } : undefined}>
        <a className="recipient-channel" href={channelHash}>
          #{channel?.name ?? 'unknown channel'}
        </a>
        <span aria-hidden="true" className="recipient-sep">
          ›
        </span>
        <a className="recipient-topic" href={topicHash}>
          {message.matchTopic ? <HighlightedTopic html={message.matchTopic} /> : message.topic || 'general chat'}
        </a>
        <span className="recipient-date">{date}</span>
      </div>
    );
  }
  const others = message.recipients.filter((r) => r.id !== me).map((r) => r.fullName);
  const label = others.length === 0 ? 'You' : `You and ${others.join(', ')}`;
  return (
    <div className="recipient-bar recipient-dm">
      <a className="recipient-topic" href={narrowHash(conversationNarrow(message, me), lookup)}>
        {label}
      </a>
      <span className="recipient-date">{date}</span>
    </div>
  );
}

/** A search result's topic with the server's `<span class="highlight">` marks. */
function HighlightedTopic({ html }: { html: string }) {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: the server's escaped topic with its highlight spans
  return <span dangerouslySetInnerHTML={{ __html: html }} />;
}
