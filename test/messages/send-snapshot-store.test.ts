import type { Knex } from 'knex';
import type { Stream } from '../../src/core/channels/model';
import { forgetSendSnapshot, recallSendSnapshot, rememberSendSnapshot, SendSnapshot } from '../../src/core/messages/send-snapshots';

/** The memory bounds of remembered send snapshots (their use is tested through the API in send-snapshots.test.ts). */
const database = () => ({}) as Knex;
const state = { policy: 0, muted: false, topicExisted: true };
const snapshot = (id: number, subscribers: number): SendSnapshot => ({
  stream: { id } as Stream,
  rowText: `(${id})`,
  subscriberIds: Array.from({ length: subscribers }, (_, i) => i + 1),
  senderTopic: state,
});

test('a snapshot is recalled by channel id or by the name it was sent to, per sender and topic, until forgotten', () => {
  const db = database();
  rememberSendSnapshot(db, 'general', 7, 'Lunch', snapshot(3, 2));
  expect(recallSendSnapshot(db, 3, 7, 'lunch')?.rowText).toBe('(3)');
  expect(recallSendSnapshot(db, ' general ', 7, 'LUNCH')?.subscriberIds).toEqual([1, 2]);
  expect(recallSendSnapshot(db, 3, 8, 'lunch')).toBeUndefined();
  expect(recallSendSnapshot(db, 3, 7, 'dinner')).toBeUndefined();
  expect(recallSendSnapshot(database(), 3, 7, 'lunch')).toBeUndefined();
  forgetSendSnapshot(db, 'general', 7, 'lunch');
  expect(recallSendSnapshot(db, 3, 7, 'lunch')).toBeUndefined();
});

test('the oldest channels go once the remembered subscriber lists pass half a million ids', () => {
  const db = database();
  rememberSendSnapshot(db, 1, 1, 't', snapshot(1, 300_000));
  rememberSendSnapshot(db, 2, 1, 't', snapshot(2, 150_000));
  expect(recallSendSnapshot(db, 1, 1, 't')).toBeDefined();
  rememberSendSnapshot(db, 3, 1, 't', snapshot(3, 100_000));
  expect(recallSendSnapshot(db, 1, 1, 't')).toBeUndefined();
  expect(recallSendSnapshot(db, 2, 1, 't')).toBeDefined();
  expect(recallSendSnapshot(db, 3, 1, 't')).toBeDefined();
  // A single channel larger than the bound is still remembered.
  rememberSendSnapshot(db, 4, 1, 't', snapshot(4, 600_000));
  expect(recallSendSnapshot(db, 4, 1, 't')).toBeDefined();
  expect(recallSendSnapshot(db, 3, 1, 't')).toBeUndefined();
});

test('at most 2,000 channels are remembered, the least recently used going first', () => {
  const db = database();
  for (let id = 1; id <= 2_000; id++) rememberSendSnapshot(db, id, 1, 't', snapshot(id, 1));
  rememberSendSnapshot(db, 1, 1, 't', snapshot(1, 1));
  rememberSendSnapshot(db, 2_001, 1, 't', snapshot(2_001, 1));
  expect(recallSendSnapshot(db, 1, 1, 't')).toBeDefined();
  expect(recallSendSnapshot(db, 2, 1, 't')).toBeUndefined();
  expect(recallSendSnapshot(db, 2_001, 1, 't')).toBeDefined();
});
