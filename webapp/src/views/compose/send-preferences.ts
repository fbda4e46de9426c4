import { lookup } from '../../app/lookup';
import { currentRoute, navigate } from '../../app/route';
import { narrowHash } from '../../narrow/hash';
import { dmKey, matchesNarrow, type Narrow } from '../../narrow/narrow';
import type { Addressee } from '../../state/compose-state';
import { getApp } from '../../state/store';
import type { Msg } from '../../state/types';

/**
 * The user's settings about sending, as in Zulip: `translate_emoticons` turns emoticons into emoji
 * before the message leaves, and `web_navigate_to_sent_message` opens the conversation a message
 * went to when the view on screen would not show it.
 */

/** Zulip's emoticons and the emoji they become (Zulip's names: :smile: is U+1F642). */
const EMOTICONS: [string, string][] = [
  [':)', ':smile:'],
  ['(:', ':upside_down:'],
  [':(', ':frown:'],
  ['<3', ':heart:'],
  [':|', ':expressionless:'],
  [':/', ':confused:'],
  [':p', ':stuck_out_tongue:'],
];
const TERMINAL = ',.;?!()[] "\'\n\t';

/** An emoticon counts only standing alone: between spaces, punctuation or the ends, not inside a URL or word. */
export function translateEmoticons(text: string): string {
  let out = text;
  for (const [emoticon, emoji] of EMOTICONS) {
    let from = 0;
    for (;;) {
      const at = out.indexOf(emoticon, from);
      if (at < 0) break;
      const before = at === 0 ? '' : out[at - 1];
      const after = out[at + emoticon.length] ?? '';
      const startOk = before === '' || TERMINAL.includes(before);
      const endOk = after === '' || TERMINAL.includes(after);
      // "Hello!:)?" stays: symbols on both sides that are not spaces.
      const boxed = before !== '' && after !== '' && before.trim() !== '' && after.trim() !== '';
      if (startOk && endOk && !boxed) {
        out = out.slice(0, at) + emoji + out.slice(at + emoticon.length);
        from = at + emoji.length;
      } else from = at + emoticon.length;
    }
  }
  return out;
}

/** The content as it is sent. */
export function contentToSend(content: string): string {
  return getApp().settings.translate_emoticons === true ? translateEmoticons(content) : content;
}

/** After sending from a message view that would not show the message, go to its conversation. */
export function followSentMessage(to: Addressee): void {
  const state = getApp();
  if (state.settings.web_navigate_to_sent_message === false) return;
  const route = currentRoute();
  if (route.view !== 'narrow') return;
  const me = state.me;
  let narrow: Narrow;
  let message: Msg;
  const base = { id: 0, senderId: me, senderFullName: '', senderEmail: '', avatarUrl: null, content: '', timestamp: 0, flags: ['read'] };
  const rest = { lastEditTimestamp: null, lastMovedTimestamp: null, isMeMessage: false, reactions: [] };
  if (to.kind === 'stream') {
    if (to.streamId === null) return;
    narrow = [
      { operator: 'channel', operand: String(to.streamId) },
      { operator: 'topic', operand: to.topic },
    ];
    message = { ...base, ...rest, type: 'stream', streamId: to.streamId, topic: to.topic, recipients: [] };
  } else {
    const key = dmKey(to.userIds, me);
    narrow = [{ operator: 'dm', operand: key }];
    const recipients = [...new Set([...to.userIds, me])].map((id) => ({ id, email: '', fullName: '' }));
    message = { ...base, ...rest, type: 'private', streamId: null, topic: '', recipients };
  }
  if (matchesNarrow(message, route.narrow, me) !== false) return;
  navigate(narrowHash(narrow, lookup));
}
