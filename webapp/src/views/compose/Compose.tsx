import { useEffect, useRef, useState } from 'react';
import { type Narrow, narrowKey } from '../../narrow/narrow';
import { type Addressee, getCompose, setCompose, useCompose } from '../../state/compose-state';
import { sendMessage } from '../../state/outbox';
import { contentToSend, followSentMessage } from './send-preferences';
import { getApp, useApp } from '../../state/store';
import '../../styles/compose.css';
import { setComposeHandler } from '../feed/compose-bridge';
import { Addressing } from './Addressing';
import { closeCompose, narrowAddressee, openCompose, quoteIntoCompose, switchConversation } from './compose-bridge';
import { draftSent, saveDraftSoon } from './drafts';
import { Outbox } from './Outbox';
import { MessageInput } from './MessageInput';
import { Preview } from './Preview';
import { TypingIndicator } from './TypingIndicator';
import { noteTyping, stopTyping } from './typing';
import { UploadList } from './UploadList';
import { useUploads } from './useUploads';
import { CALL_PROVIDERS, callProvider, insertCallLink, newVideoCallUrl, videoCallMarkdown } from './video-call';

const isConversation = (to: Addressee | null) => to !== null && (to.kind === 'private' || to.topic !== '');

function typingInField(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName));
}

/** `c` and `x` open the box when the focus is not in a field. */
function useComposeKeys(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || typingInField(e.target)) return;
      if (e.key !== 'c' && e.key !== 'x') return;
      e.preventDefault();
      openCompose(e.key === 'c' ? 'stream' : 'private');
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}

/**
 * The compose box at the bottom of a narrow: addressed to the narrow's conversation in a topic or
 * direct-message narrow, else opened by "New message", `c` or `x`. Markdown with a preview,
 * completion, uploads, typing notifications, drafts kept on the server, and sending with a local echo.
 */
export function Compose({ narrow }: { narrow: Narrow }) {
  const { open, to, content, draftId, focus } = useCompose();
  const enterSends = useApp((s) => s.settings.enter_sends === true);
  const here = narrowAddressee(narrow);
  const inConversation = isConversation(here);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const box = useRef<HTMLFormElement>(null);
  const [preview, setPreview] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const { uploads, start, dismiss } = useUploads(textarea);
  const uploading = uploads.some((u) => u.error === null);
  const provider = useApp((s) => callProvider(s.register));
  const [calling, setCalling] = useState(false);
  useComposeKeys();

  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for the narrow.
  useEffect(() => {
    if (here && isConversation(here)) switchConversation(here);
    // Elsewhere an empty box closes, as in Zulip; one holding text stays open.
    else if (getCompose().content.trim() === '') setCompose({ open: false });
  }, [narrowKey(narrow)]);

  useEffect(() => {
    setComposeHandler((request) =>
      quoteIntoCompose(
        request.text,
        request.to.kind === 'stream'
          ? { kind: 'stream', streamId: request.to.streamId, topic: request.to.topic }
          : { kind: 'private', userIds: request.to.userIds },
      ),
    );
    return () => setComposeHandler(null);
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on a focus request only, with the addressee of that moment.
  useEffect(() => {
    if (!focus) return;
    setPreview(false);
    requestAnimationFrame(() => {
      if (focus.field === 'content') textarea.current?.focus();
      else
        box.current
          ?.querySelector<HTMLElement>(to.kind === 'stream' && to.streamId !== null ? '#compose-topic' : '#compose-channel, #compose-recipients')
          ?.focus();
    });
  }, [focus]);

  const expanded = open || inConversation;
  if (!expanded) {
    return (
      <div className="compose-closed">
        {here ? <TypingIndicator to={here} /> : null}
        <Outbox />
        <div className="compose-buttons">
          <button type="button" aria-label="New message" onClick={() => openCompose('stream')}>
            {here?.kind === 'stream' ? 'New topic' : 'New message'}
          </button>
          <button type="button" onClick={() => openCompose('private')}>
            New direct message
          </button>
        </div>
      </div>
    );
  }

  const changeContent = (text: string) => {
    setCompose({ content: text });
    setProblem(null);
    noteTyping(to, text);
    saveDraftSoon();
  };
  const readdress = (next: Addressee) => {
    stopTyping();
    setCompose({ to: next });
    saveDraftSoon();
  };
  const addVideoCall = () => {
    setCalling(true);
    setProblem(null);
    newVideoCallUrl(to)
      .then((url) => {
        insertCallLink(textarea.current, videoCallMarkdown(url));
        saveDraftSoon();
      })
      .catch((error: Error) => setProblem(error.message))
      .finally(() => setCalling(false));
  };
  const send = () => {
    if (content.trim() === '') return;
    if (to.kind === 'stream' && to.streamId === null) return setProblem('Choose a channel.');
    if (to.kind === 'stream' && to.topic.trim() === '' && getApp().register.realm_mandatory_topics === true) return setProblem('Choose a topic.');
    if (to.kind === 'private' && to.userIds.length === 0) return setProblem('Choose someone to write to.');
    if (uploading) return setProblem('Wait for the uploads to finish.');
    stopTyping();
    draftSent(draftId);
    sendMessage(to, contentToSend(content));
    setCompose({ content: '', draftId: null });
    setPreview(false);
    textarea.current?.focus();
    followSentMessage(to);
  };

  return (
    <form
      ref={box}
      className={`compose-box${dragging ? ' dragging' : ''}`}
      aria-label="Compose message"
      onSubmit={(e) => {
        e.preventDefault();
        send();
      }}
      onDragOver={(e) => {
        if (![...e.dataTransfer.types].includes('Files')) return;
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(e) => {
        setDragging(false);
        if (e.dataTransfer.files.length === 0) return;
        e.preventDefault();
        start([...e.dataTransfer.files]);
      }}
    >
      <Outbox />
      <div className="compose-header">
        <fieldset className="compose-kind">
          <legend className="visually-hidden">Write to</legend>
          <button type="button" aria-pressed={to.kind === 'stream'} onClick={() => openCompose('stream')}>
            Channel
          </button>
          <button type="button" aria-pressed={to.kind === 'private'} onClick={() => openCompose('private')}>
            Direct
          </button>
        </fieldset>
        <Addressing to={to} onChange={readdress} />
        {inConversation ? null : (
          <button type="button" className="compose-close" aria-label="Close" onClick={closeCompose}>
            ×
          </button>
        )}
      </div>
      <TypingIndicator to={inConversation && here ? here : to} />
      {preview ? (
        <Preview content={content} />
      ) : (
        <MessageInput
          value={content}
          onChange={changeContent}
          onSend={send}
          onFiles={start}
          enterSends={enterSends}
          textarea={textarea}
          onEscape={() => {
            if (!inConversation) closeCompose();
          }}
        />
      )}
      <UploadList uploads={uploads} onDismiss={dismiss} />
      {problem ? (
        <p className="compose-problem" role="alert">
          {problem}
        </p>
      ) : null}
      <div className="compose-toolbar">
        <label className="compose-tool upload-button">
          <span aria-hidden="true">📎</span>
          <span className="visually-hidden">Attach files</span>
          <input
            type="file"
            multiple
            aria-label="Upload files"
            className="visually-hidden"
            onChange={(e) => {
              start([...(e.target.files ?? [])]);
              e.target.value = '';
            }}
          />
        </label>
        <button type="button" className="compose-tool" aria-label="Preview" aria-pressed={preview} onClick={() => setPreview(!preview)}>
          {preview ? 'Edit' : 'Preview'}
        </button>
        {provider === CALL_PROVIDERS.disabled ? null : (
          <button type="button" className="compose-tool" aria-label="Add video call" title="Add video call" disabled={calling} onClick={addVideoCall}>
            <span aria-hidden="true">📹</span>
          </button>
        )}
        <span className="compose-hint">{enterSends ? 'Enter to send, Shift+Enter for a new line' : 'Ctrl+Enter to send'}</span>
        <button type="submit" className="compose-send" aria-label="Send" disabled={content.trim() === '' || uploading}>
          Send
        </button>
      </div>
    </form>
  );
}
