import { memo, useRef, useState } from 'react';
import { useApp } from '../../state/store';
import type { Msg } from '../../state/types';
import { LazyEmojiPicker } from '../emoji/lazy';
import { Reactions } from '../reactions/Reactions';
import { toggleReaction } from '../reactions/toggle';
import { EditForm } from './EditForm';
import { formatDate, formatTime, type RowHeaders } from './grouping';
import { MessageContent } from './MessageContent';
import { MessageMenu } from './MessageMenu';
import { RecipientBar } from './RecipientBar';
import { MessageWidget } from './widgets/MessageWidget';

/** Only avatars this server serves: the page loads nothing from elsewhere (Gravatar's are drawn as an initial). */
function localUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url, window.location.href).origin === window.location.origin ? url : null;
  } catch {
    return null;
  }
}

function Avatar({ message }: { message: Msg }) {
  const url = localUrl(useApp((s) => s.users.get(message.senderId)?.avatar_url ?? message.avatarUrl));
  const [broken, setBroken] = useState(false);
  if (url && !broken) return <img className="avatar" src={url} alt="" loading="lazy" onError={() => setBroken(true)} />;
  return (
    <span className="avatar avatar-initial" aria-hidden="true">
      {message.senderFullName.slice(0, 1).toUpperCase()}
    </span>
  );
}

/** One message with whatever starts with it: a date line, its conversation's bar, its sender. */
type RowProps = { message: Msg; headers: RowHeaders; listKey: string; target?: boolean };
const same = (a: RowProps, b: RowProps) =>
  a.message === b.message &&
  a.listKey === b.listKey &&
  a.headers.date === b.headers.date &&
  a.headers.recipient === b.headers.recipient &&
  a.headers.sender === b.headers.sender;

export const MessageRow = memo(function MessageRow({ message, headers, listKey, target }: RowProps) {
  const twentyFour = useApp((s) => s.settings.twenty_four_hour_time === true);
  const [editing, setEditing] = useState(false);
  const [picking, setPicking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const unread = !message.flags.includes('read');
  const mentioned = message.flags.some((f) => f.endsWith('mentioned'));
  const time = formatTime(message.timestamp, twentyFour);
  const when = new Date(message.timestamp * 1000).toLocaleString();
  const classes = [
    'message',
    headers.sender ? 'message-first' : 'message-compact',
    unread ? 'unread' : '',
    mentioned ? 'mentioned' : '',
    picking ? 'tools-open' : '',
    target ? 'message-target' : '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <div className="message-row">
      {headers.date ? (
        <div className="date-separator">
          <span>{formatDate(message.timestamp)}</span>
        </div>
      ) : null}
      {headers.recipient ? <RecipientBar message={message} /> : null}
      <article className={classes} data-message-id={message.id} aria-label={`${message.senderFullName}, ${when}${unread ? ', unread' : ''}`}>
        {unread ? <span className="unread-marker" title="Unread" /> : null}
        <div className="message-gutter">
          {headers.sender ? (
            <Avatar message={message} />
          ) : (
            <time className="message-time-compact" dateTime={new Date(message.timestamp * 1000).toISOString()} title={when}>
              {time}
            </time>
          )}
        </div>
        <div className="message-main">
          {headers.sender ? (
            <div className="message-header">
              <span className="sender-name">{message.senderFullName}</span>
              <time className="message-time" dateTime={new Date(message.timestamp * 1000).toISOString()} title={when}>
                {time}
              </time>
            </div>
          ) : (
            <span className="sender-name visually-hidden">{message.senderFullName}</span>
          )}
          {editing ? (
            <EditForm messageId={message.id} onDone={() => setEditing(false)} />
          ) : (
            <div className={message.isMeMessage ? 'me-message' : undefined}>
              <MessageWidget message={message}>
                <MessageContent html={message.matchContent ?? message.content} />
              </MessageWidget>
              {message.lastEditTimestamp ? <span className="edited-mark">(edited)</span> : null}
              {message.lastMovedTimestamp && !message.lastEditTimestamp ? <span className="moved-mark">(moved)</span> : null}
              {message.flags.includes('starred') ? (
                <span className="star-mark" role="img" aria-label="Starred">
                  ★
                </span>
              ) : null}
            </div>
          )}
          <Reactions message={message} onError={setError} />
          {error ? (
            <p className="form-error" role="alert">
              {error}
            </p>
          ) : null}
        </div>
        <div className="message-tools">
          <button ref={addButton} type="button" className="message-tool" aria-label="Add reaction" aria-haspopup="dialog" onClick={() => setPicking(true)}>
            ☺
          </button>
          <MessageMenu message={message} listKey={listKey} onEdit={() => setEditing(true)} onError={setError} />
        </div>
        {picking ? (
          <LazyEmojiPicker
            anchor={addButton.current}
            onClose={() => {
              setPicking(false);
              addButton.current?.focus();
            }}
            onPick={(emoji) => {
              setPicking(false);
              addButton.current?.focus();
              void toggleReaction(message.id, emoji).then(setError);
            }}
          />
        ) : null}
      </article>
    </div>
  );
}, same);
