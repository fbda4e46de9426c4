import { useEffect, useState } from 'react';
import { type Choice, choicesFor, findTrigger, type Trigger } from './autocomplete';
import { type EmojiName, emojiNames } from './emoji-data';
import { optionId, Suggestions, suggestionKey } from './Suggestions';

interface Props {
  value: string;
  onChange: (value: string) => void;
  onSend: () => void;
  onFiles: (files: File[]) => void;
  /** The user's enter_sends: Enter sends (Shift+Enter a new line), else Ctrl+Enter sends. */
  enterSends: boolean;
  textarea: React.RefObject<HTMLTextAreaElement>;
  onEscape: () => void;
}

const LIST_ID = 'compose-autocomplete';

/** The message's text, with completion of people, groups, channels, topics and emoji as one types. */
export function MessageInput({ value, onChange, onSend, onFiles, enterSends, textarea, onEscape }: Props) {
  const [trigger, setTrigger] = useState<Trigger | null>(null);
  const [active, setActive] = useState(0);
  const [emoji, setEmoji] = useState<EmojiName[] | null>(null);
  const needsEmoji = trigger?.kind === 'emoji' && emoji === null;
  useEffect(() => {
    if (needsEmoji) void emojiNames().then(setEmoji);
  }, [needsEmoji]);
  const choices: Choice[] = trigger ? choicesFor(trigger, emoji) : [];

  const update = (text: string, caret: number) => {
    onChange(text);
    setTrigger(findTrigger(text.slice(0, caret)));
    setActive(0);
  };
  const pick = (choice: Choice | undefined) => {
    const el = textarea.current;
    if (!choice || !trigger || !el) return;
    const caret = el.selectionStart;
    const text = `${value.slice(0, trigger.start)}${choice.insert} ${value.slice(caret)}`;
    const at = trigger.start + choice.insert.length + 1;
    onChange(text);
    setTrigger(null);
    requestAnimationFrame(() => el.setSelectionRange(at, at));
  };

  const onKeyDown = (e: React.KeyboardEvent<HTMLTextAreaElement>) => {
    if (
      suggestionKey(
        e,
        choices.length,
        active,
        setActive,
        (i) => pick(choices[i]),
        () => setTrigger(null),
      )
    )
      return;
    if (e.key === 'Escape') {
      onEscape();
      return;
    }
    if (e.key !== 'Enter' || e.nativeEvent.isComposing) return;
    const modified = e.ctrlKey || e.metaKey;
    if (enterSends ? !e.shiftKey && !modified && !e.altKey : modified) {
      e.preventDefault();
      onSend();
    } else if (enterSends && modified) {
      // Ctrl+Enter is the other key: a new line at the cursor.
      e.preventDefault();
      const el = e.currentTarget;
      const { selectionStart: s, selectionEnd: end } = el;
      update(`${value.slice(0, s)}\n${value.slice(end)}`, s + 1);
      requestAnimationFrame(() => el.setSelectionRange(s + 1, s + 1));
    }
  };

  const expanded = choices.length > 0;
  return (
    <div className="compose-input">
      <textarea
        id="compose-textarea"
        ref={textarea}
        aria-label="Message"
        placeholder="Message"
        aria-autocomplete="list"
        aria-controls={expanded ? LIST_ID : undefined}
        aria-activedescendant={expanded ? optionId(LIST_ID, active) : undefined}
        value={value}
        rows={3}
        onChange={(e) => update(e.target.value, e.target.selectionStart)}
        onKeyDown={onKeyDown}
        onBlur={() => setTrigger(null)}
        onPaste={(e) => {
          const files = [...e.clipboardData.files];
          if (files.length === 0) return;
          e.preventDefault();
          onFiles(files);
        }}
      />
      {expanded ? <Suggestions id={LIST_ID} label="Suggestions" choices={choices} active={active} onPick={pick} /> : null}
    </div>
  );
}
