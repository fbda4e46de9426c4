import { type FormEvent, useRef, useState } from 'react';
import { UpdateUserStatusMutation } from '../../api/operations/settings';
import { setApp, useApp } from '../../state/store';
import { LazyEmojiPicker } from '../emoji/lazy';
import type { EmojiChoice } from '../reactions/toggle';
import { SaveStatus, Toggle, useSaving } from './controls';
import { run } from './save';

/** An emoji as the status names it: Unicode from its code points, custom emoji by their image. */
function StatusEmoji({ emoji }: { emoji: EmojiChoice }) {
  const realmEmoji = useApp((s) => s.realmEmoji);
  if (emoji.type === 'realm_emoji' || emoji.type === 'zulip_extra_emoji') {
    const url = realmEmoji[emoji.code]?.source_url;
    return url ? <img className="status-emoji" src={url} alt={`:${emoji.name}:`} /> : <span>:{emoji.name}:</span>;
  }
  const text = String.fromCodePoint(...emoji.code.split('-').map((h) => Number.parseInt(h, 16)));
  return (
    <span className="status-emoji" role="img" aria-label={emoji.name}>
      {text}
    </span>
  );
}

/** The user's status: a short text with an emoji, and whether they appear away. */
export function StatusEditor() {
  const status = useApp((s) => s.userStatus.get(s.me));
  const current: EmojiChoice | null = status?.emoji_name
    ? { name: status.emoji_name, code: status.emoji_code ?? '', type: status.reaction_type ?? 'unicode_emoji' }
    : null;
  const [text, setText] = useState<string | null>(null);
  const [emoji, setEmoji] = useState<EmojiChoice | null | undefined>(undefined);
  const [picking, setPicking] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const [state, save] = useSaving();
  const shownEmoji = emoji === undefined ? current : emoji;

  const send = (statusText: string, chosen: EmojiChoice | null) =>
    save(async () => {
      const input = { statusText, emojiName: chosen?.name ?? '', emojiCode: chosen?.code ?? '', reactionType: chosen?.type ?? '' };
      const outcome = await run(UpdateUserStatusMutation, { status: input });
      if (outcome.error !== null) return outcome.error;
      setApp((s) => {
        const userStatus = new Map(s.userStatus);
        userStatus.set(s.me, {
          ...userStatus.get(s.me),
          status_text: statusText,
          emoji_name: chosen?.name ?? '',
          emoji_code: chosen?.code ?? '',
          reaction_type: chosen?.type ?? '',
        });
        return { userStatus };
      });
      setText(null);
      setEmoji(undefined);
      return null;
    });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void send((text ?? status?.status_text ?? '').trim(), shownEmoji);
  };
  return (
    <>
      <form className="setting-row" onSubmit={submit}>
        <button ref={button} type="button" className="status-emoji-button" aria-label="Choose status emoji" onClick={() => setPicking(true)}>
          {shownEmoji ? <StatusEmoji emoji={shownEmoji} /> : <span aria-hidden="true">☺</span>}
        </button>
        <label htmlFor="settings-status-text" className="visually-hidden">
          Status text
        </label>
        <input
          id="settings-status-text"
          placeholder="What's your status?"
          maxLength={60}
          value={text ?? status?.status_text ?? ''}
          onChange={(e) => setText(e.target.value)}
        />
        <button type="submit">Save status</button>
        <button type="button" onClick={() => void send('', null)} disabled={!status?.status_text && !status?.emoji_name}>
          Clear status
        </button>
        <SaveStatus state={state} />
      </form>
      {picking ? (
        <LazyEmojiPicker
          anchor={button.current}
          onPick={(chosen) => {
            setEmoji(chosen);
            setPicking(false);
          }}
          onClose={() => setPicking(false)}
        />
      ) : null}
      {/* Away is the opposite of sharing one's presence, as in Zulip's "invisible mode". */}
      <Toggle name="presence_enabled" label="Show when I am online (off: appear away)" />
    </>
  );
}
