import { conversationKey, rowHeaders } from '../../webapp/src/views/feed/grouping';
import { isConversationNarrow, marksReadOnScroll } from '../../webapp/src/state/read-tracking';
import type { Msg } from '../../webapp/src/state/types';

/** The message feed's rules: how rows group, and where scrolling marks messages read. */
const me = 1;
let nextId = 100;
function message(change: Partial<Msg>): Msg {
  return {
    id: nextId++,
    type: 'stream',
    senderId: 2,
    senderFullName: 'Bob Brown',
    senderEmail: 'bob@example.com',
    avatarUrl: null,
    streamId: 7,
    topic: 'plans',
    content: '<p>hi</p>',
    timestamp: Date.UTC(2026, 10, 20, 12) / 1000,
    flags: [],
    lastEditTimestamp: null,
    lastMovedTimestamp: null,
    isMeMessage: false,
    recipients: [],
    reactions: [],
    ...change,
  };
}

test('the first row opens a conversation with its sender', () => {
  expect(rowHeaders(undefined, message({}), me)).toEqual({ date: false, recipient: true, sender: true });
});

test('a run by one sender in one topic is compact; topics compare without case', () => {
  const first = message({});
  expect(rowHeaders(first, message({ topic: 'PLANS' }), me)).toEqual({ date: false, recipient: false, sender: false });
  expect(rowHeaders(first, message({ senderId: 3 }), me)).toEqual({ date: false, recipient: false, sender: true });
  expect(rowHeaders(first, message({ topic: 'other' }), me)).toEqual({ date: false, recipient: true, sender: true });
  expect(rowHeaders(first, message({ streamId: 8 }), me)).toEqual({ date: false, recipient: true, sender: true });
});

test('a new day inside a conversation draws a date line and the sender again', () => {
  const first = message({});
  const nextDay = message({ timestamp: first.timestamp + 86_400 });
  expect(rowHeaders(first, nextDay, me)).toEqual({ date: true, recipient: false, sender: true });
});

test('direct messages group by their participants, whoever sends', () => {
  const recipients = [
    { id: 1, email: 'me@example.com', fullName: 'Me' },
    { id: 2, email: 'bob@example.com', fullName: 'Bob Brown' },
  ];
  const fromBob = message({ type: 'private', streamId: null, topic: '', recipients });
  const fromMe = message({ type: 'private', streamId: null, topic: '', recipients, senderId: 1 });
  expect(conversationKey(fromBob, me)).toBe(conversationKey(fromMe, me));
  expect(rowHeaders(fromBob, fromMe, me)).toEqual({ date: false, recipient: false, sender: true });
  expect(conversationKey(fromBob, me)).not.toBe(conversationKey(message({}), me));
});

test('conversation views are a topic or a direct-message conversation', () => {
  expect(
    isConversationNarrow([
      { operator: 'channel', operand: '7' },
      { operator: 'topic', operand: 'plans' },
    ]),
  ).toBe(true);
  expect(isConversationNarrow([{ operator: 'dm', operand: '2' }])).toBe(true);
  expect(isConversationNarrow([{ operator: 'channel', operand: '7' }])).toBe(false);
  expect(isConversationNarrow([])).toBe(false);
  expect(
    isConversationNarrow([
      { operator: 'channel', operand: '7' },
      { operator: 'topic', operand: 'plans', negated: true },
    ]),
  ).toBe(false);
});

test('web_mark_read_on_scroll_policy: 1 always, 2 in conversations, 3 never; search never', () => {
  const topic = [
    { operator: 'stream', operand: '7' },
    { operator: 'subject', operand: 'plans' },
  ];
  const channel = [{ operator: 'channel', operand: '7' }];
  expect([1, 2, 3].map((policy) => marksReadOnScroll(policy, topic))).toEqual([true, true, false]);
  expect([1, 2, 3].map((policy) => marksReadOnScroll(policy, channel))).toEqual([true, false, false]);
  expect(marksReadOnScroll(undefined, [])).toBe(true);
  expect(marksReadOnScroll(1, [{ operator: 'search', operand: 'plans' }])).toBe(false);
});
